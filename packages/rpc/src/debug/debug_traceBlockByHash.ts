import { AshlarError, ErrorCodes, defineRpcMethod, toData } from '@ashlar/core';
import { hash } from '../params/index.js';
import { traceBlock } from './replay.js';
import { makeTracer } from './makeTracer.js';
import { tracerSpec } from './traceOptions.js';

export const debug_traceBlockByHash = defineRpcMethod({
  name: 'debug_traceBlockByHash',
  params: [hash('blockHash'), tracerSpec(1)],
  handler: async (ctx, [h, spec]) => {
    const sb = await ctx.services.chain.getBlockByHash(h);
    if (!sb) throw new AshlarError(ErrorCodes.BLOCK_NOT_FOUND, `block ${toData(h)} not found`);
    return traceBlock(
      ctx.services,
      sb,
      () => makeTracer(spec, ctx.services.options.rpc.maxResponseBytes),
      undefined,
      spec.timeoutMs,
    );
  },
});
