import { AshlarError, ErrorCodes, defineRpcMethod } from '@ashlar/core';
import { blockTag } from '../params/index.js';
import { findBlock } from '../shared/blocks.js';
import { traceBlock } from './replay.js';
import { makeTracer } from './makeTracer.js';
import { tracerSpec } from './traceOptions.js';

export const debug_traceBlockByNumber = defineRpcMethod({
  name: 'debug_traceBlockByNumber',
  params: [blockTag('block'), tracerSpec(1)],
  handler: async (ctx, [block, spec]) => {
    const sb = await findBlock(ctx.services, block);
    if (!sb) {
      const what = block.kind === 'number' ? `#${block.number}` : block.tag;
      throw new AshlarError(ErrorCodes.BLOCK_NOT_FOUND, `block ${what} not found`);
    }
    return traceBlock(
      ctx.services,
      sb,
      () => makeTracer(spec, ctx.services.options.rpc.maxResponseBytes),
      undefined,
      spec.timeoutMs,
    );
  },
});
