import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { blockTag } from '../params/index.js';
import { findBlock, isPending } from '../shared/blocks.js';
import { forwardToUpstream } from '../shared/forkHistory.js';

export const eth_getBlockTransactionCountByNumber = defineRpcMethod({
  name: 'eth_getBlockTransactionCountByNumber',
  params: [blockTag('block')],
  handler: async (ctx, [block]) => {
    if (isPending(block)) return toQuantity(ctx.services.mempool.size);
    const upstream = forwardToUpstream(ctx.services, block, 'eth_getBlockTransactionCountByNumber', [], 0);
    if (upstream) return upstream;
    const sb = await findBlock(ctx.services, block);
    return sb ? toQuantity(sb.block.transactions.length) : null;
  },
});
