import { defineRpcMethod } from '@ashlar/core';
import { toRpcBlock } from '../format/index.js';
import { blockTag, boolean } from '../params/index.js';
import { findBlock, isPending, pendingRpcBlock } from '../shared/blocks.js';
import { forwardToUpstream } from '../shared/forkHistory.js';

export const eth_getBlockByNumber = defineRpcMethod({
  name: 'eth_getBlockByNumber',
  params: [blockTag('block'), boolean('fullTransactions')],
  handler: async (ctx, [block, full]) => {
    if (isPending(block)) return pendingRpcBlock(ctx.services, full);
    const upstream = forwardToUpstream(ctx.services, block, 'eth_getBlockByNumber', [full], 0);
    if (upstream) return upstream;
    const sb = await findBlock(ctx.services, block);
    return sb ? toRpcBlock(sb, full) : null;
  },
});
