import { defineRpcMethod, toData } from '@ashlar/core';
import { blockTagOrHash } from '../params/index.js';
import { rawBlockOf } from './rawBlock.js';
import { encodeReceipt } from './rawReceipt.js';

/** Each receipt of the block in its consensus encoding. */
export const debug_getRawReceipts = defineRpcMethod({
  name: 'debug_getRawReceipts',
  params: [blockTagOrHash('block')],
  handler: async (ctx, [block]) => {
    const sb = await rawBlockOf(ctx.services, block);
    return sb.receipts.map((r, i) => toData(encodeReceipt(r, sb.block.transactions[i].type)));
  },
});
