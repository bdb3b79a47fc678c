import { defineRpcMethod, toData } from '@ashlar/core';
import { blockTagOrHash } from '../params/index.js';
import { rawBlockOf } from './rawBlock.js';

/** The block's RLP, as stored (an imported block: the bytes that were imported). */
export const debug_getRawBlock = defineRpcMethod({
  name: 'debug_getRawBlock',
  params: [blockTagOrHash('block')],
  handler: async (ctx, [block]) => {
    const sb = await rawBlockOf(ctx.services, block);
    return toData(sb.rlp ?? sb.block.serialize());
  },
});
