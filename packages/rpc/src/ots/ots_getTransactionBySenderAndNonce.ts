import { type TxPosition, defineRpcMethod, toData } from '@ashlar/core';
import { address } from '../params/index.js';
import { otsUint64 } from './otsParams.js';
import { requireIndex } from './requireIndex.js';

const CHUNK = 256;

/**
 * The hash of the transaction `sender` sent with `nonce`, or null: the sender's transactions
 * in the explorer index, walked newest first until the nonces fall below the one asked.
 */
export const ots_getTransactionBySenderAndNonce = defineRpcMethod({
  name: 'ots_getTransactionBySenderAndNonce',
  params: [address('sender'), otsUint64('nonce')],
  handler: async (ctx, [sender, nonce]) => {
    const q = requireIndex(ctx.services, 'ots_getTransactionBySenderAndNonce').queries;
    const src = { kind: 'address', address: sender.bytes, roles: ['from'] } as const;
    for (let cursor: TxPosition | undefined; ; ) {
      const chunk = await q.txs(src, cursor, CHUNK);
      for (const p of chunk) {
        const sb = await ctx.services.chain.getBlock(p.block);
        const tx = sb?.block.transactions[p.index];
        if (!tx) continue;
        if (tx.nonce === nonce) return toData(tx.hash());
        if (tx.nonce < nonce) return null;
      }
      if (chunk.length < CHUNK) return null;
      cursor = chunk[chunk.length - 1];
    }
  },
});
