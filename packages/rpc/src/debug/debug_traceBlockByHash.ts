import { AshlarError, ErrorCodes, defineRpcMethod, toData } from '@ashlar/core';
import { hash } from '../params/index.js';
import { traceBlock } from './replay.js';
import { traceConfig } from './structLogger.js';

export const debug_traceBlockByHash = defineRpcMethod({
  name: 'debug_traceBlockByHash',
  params: [hash('blockHash'), traceConfig(1)],
  handler: async (ctx, [h, config]) => {
    const sb = await ctx.kernel.chain.getBlockByHash(h);
    if (!sb) throw new AshlarError(ErrorCodes.BLOCK_NOT_FOUND, `block ${toData(h)} not found`);
    return traceBlock(ctx.kernel, sb, config);
  },
});
