import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { hash, quantityNumber } from '../params/index.js';
import { minedTransaction } from '../shared/transactions.js';
import { forwardByBlockHash } from '../shared/forkHistory.js';

export const eth_getTransactionByBlockHashAndIndex = defineRpcMethod({
  name: 'eth_getTransactionByBlockHashAndIndex',
  params: [hash('blockHash'), quantityNumber('index')],
  handler: async (ctx, [h, index]) => {
    const sb = await ctx.services.chain.getBlockByHash(h);
    const upstream = forwardByBlockHash(ctx.services, sb, h, 'eth_getTransactionByBlockHashAndIndex', [
      toQuantity(index),
    ]);
    if (upstream) return upstream;
    return sb ? minedTransaction(sb, index) : null;
  },
});
