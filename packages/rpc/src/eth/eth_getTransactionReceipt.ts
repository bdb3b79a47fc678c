import { defineRpcMethod, recentTxsOf } from '@ashlar/core';
import { toRpcReceipt } from '../format/index.js';
import { hash } from '../params/index.js';
import { upstreamTransaction } from '../shared/forkHistory.js';

export const eth_getTransactionReceipt = defineRpcMethod({
  name: 'eth_getTransactionReceipt',
  params: [hash('transactionHash')],
  handler: async (ctx, [h]) => {
    // A pending transaction has no receipt (spec §4.1 rule 2).
    const loc = await recentTxsOf(ctx.services.chain).locate(h);
    return loc ? toRpcReceipt(loc.block, loc.index) : upstreamTransaction(ctx.services, 'eth_getTransactionReceipt', h);
  },
});
