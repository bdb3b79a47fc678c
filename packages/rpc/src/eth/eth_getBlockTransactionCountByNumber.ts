import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { blockTag } from '../params/index.js';
import { findBlock, isPending } from '../shared/blocks.js';

export const eth_getBlockTransactionCountByNumber = defineRpcMethod({
  name: 'eth_getBlockTransactionCountByNumber',
  params: [blockTag('block')],
  handler: async (ctx, [block]) => {
    if (isPending(block)) return toQuantity(ctx.services.mempool.size);
    const sb = await findBlock(ctx.services, block);
    return sb ? toQuantity(sb.block.transactions.length) : null;
  },
});
