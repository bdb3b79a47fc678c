import { defineRpcMethod, recentTxsOf } from '@ashlar/core';
import { bytesToHex } from '@ethereumjs/util';
import { toRpcTransaction } from '../format/index.js';
import { hash } from '../params/index.js';
import { minedTransaction } from '../shared/transactions.js';
import { upstreamTransaction } from '../shared/forkHistory.js';

export const eth_getTransactionByHash = defineRpcMethod({
  name: 'eth_getTransactionByHash',
  params: [hash('transactionHash')],
  handler: async (ctx, [h]) => {
    const loc = await recentTxsOf(ctx.services.chain).locate(h);
    if (loc) return minedTransaction(loc.block, loc.index);
    const p = ctx.services.mempool.get(bytesToHex(h));
    return p ? toRpcTransaction(p.tx, p.sender) : upstreamTransaction(ctx.services, 'eth_getTransactionByHash', h);
  },
});
