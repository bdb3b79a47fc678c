import { defineRpcMethod } from '@ashlar/core';
import { toRpcReceipts } from '../format/index.js';
import { blockTagOrHash } from '../params/index.js';
import { findBlock, isPending } from '../shared/blocks.js';

export const eth_getBlockReceipts = defineRpcMethod({
  name: 'eth_getBlockReceipts',
  params: [blockTagOrHash('block')],
  handler: async (ctx, [block]) => {
    if (isPending(block)) return null;
    const sb = await findBlock(ctx.services, block);
    return sb ? toRpcReceipts(sb) : null;
  },
});
