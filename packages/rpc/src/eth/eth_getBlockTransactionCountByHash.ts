import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { hash } from '../params/index.js';

export const eth_getBlockTransactionCountByHash = defineRpcMethod({
  name: 'eth_getBlockTransactionCountByHash',
  params: [hash('blockHash')],
  handler: async (ctx, [h]) => {
    const sb = await ctx.services.chain.getBlockByHash(h);
    return sb ? toQuantity(sb.block.transactions.length) : null;
  },
});
