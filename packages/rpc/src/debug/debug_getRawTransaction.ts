import { defineRpcMethod, toData } from '@ashlar/core';
import { bytesToHex } from '@ethereumjs/util';
import { hash } from '../params/index.js';

/** A mined or pooled transaction's canonical encoding; `0x` when unknown (as geth). */
export const debug_getRawTransaction = defineRpcMethod({
  name: 'debug_getRawTransaction',
  params: [hash('transactionHash')],
  handler: async (ctx, [h]) => {
    const loc = await ctx.services.chain.getTransactionLocation(h);
    if (loc) return toData(loc.block.block.transactions[loc.index].serialize());
    const p = ctx.services.mempool.get(bytesToHex(h));
    return toData(p ? p.tx.serialize() : new Uint8Array(0));
  },
});
