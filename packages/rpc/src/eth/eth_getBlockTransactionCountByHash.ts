import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { hash } from '../params/index.js';
import { forwardByBlockHash } from '../shared/forkHistory.js';

export const eth_getBlockTransactionCountByHash = defineRpcMethod({
  name: 'eth_getBlockTransactionCountByHash',
  params: [hash('blockHash')],
  handler: async (ctx, [h]) => {
    const sb = await ctx.services.chain.getBlockByHash(h);
    const upstream = forwardByBlockHash(ctx.services, sb, h, 'eth_getBlockTransactionCountByHash', []);
    if (upstream) return upstream;
    return sb ? toQuantity(sb.block.transactions.length) : null;
  },
});
