import { defineRpcMethod } from '@ashlar/core';
import { hash, quantityNumber } from '../params/index.js';
import { minedTransaction } from '../shared/transactions.js';

export const eth_getTransactionByBlockHashAndIndex = defineRpcMethod({
  name: 'eth_getTransactionByBlockHashAndIndex',
  params: [hash('blockHash'), quantityNumber('index')],
  handler: async (ctx, [h, index]) => {
    const sb = await ctx.services.chain.getBlockByHash(h);
    return sb ? minedTransaction(sb, index) : null;
  },
});
