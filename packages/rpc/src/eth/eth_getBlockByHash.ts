import { defineRpcMethod } from '@ashlar/core';
import { toRpcBlock } from '../format/index.js';
import { boolean, hash } from '../params/index.js';
import { forwardByBlockHash } from '../shared/forkHistory.js';

export const eth_getBlockByHash = defineRpcMethod({
  name: 'eth_getBlockByHash',
  params: [hash('blockHash'), boolean('fullTransactions')],
  handler: async (ctx, [h, full]) => {
    const sb = await ctx.services.chain.getBlockByHash(h);
    const upstream = forwardByBlockHash(ctx.services, sb, h, 'eth_getBlockByHash', [full]);
    if (upstream) return upstream;
    return sb ? toRpcBlock(sb, full) : null;
  },
});
