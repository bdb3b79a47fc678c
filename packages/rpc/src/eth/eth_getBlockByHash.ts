import { defineRpcMethod } from '@ashlar/core';
import { toRpcBlock } from '../format/index.js';
import { boolean, hash } from '../params/index.js';

export const eth_getBlockByHash = defineRpcMethod({
  name: 'eth_getBlockByHash',
  params: [hash('blockHash'), boolean('fullTransactions')],
  handler: async (ctx, [h, full]) => {
    const sb = await ctx.services.chain.getBlockByHash(h);
    return sb ? toRpcBlock(sb, full) : null;
  },
});
