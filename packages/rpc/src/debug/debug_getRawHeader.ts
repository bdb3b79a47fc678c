import { defineRpcMethod, toData } from '@ashlar/core';
import { blockTagOrHash } from '../params/index.js';
import { rawBlockOf } from './rawBlock.js';

export const debug_getRawHeader = defineRpcMethod({
  name: 'debug_getRawHeader',
  params: [blockTagOrHash('block')],
  handler: async (ctx, [block]) => toData((await rawBlockOf(ctx.services, block)).block.header.serialize()),
});
