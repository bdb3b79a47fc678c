import { AshlarError, ErrorCodes, defineRpcMethod } from '@ashlar/core';
import { hash } from '../params/index.js';
import { traceBlock } from './replay.js';
import { traceConfig } from './structLogger.js';

export const debug_traceTransaction = defineRpcMethod({
  name: 'debug_traceTransaction',
  params: [hash('transactionHash'), traceConfig(1)],
  handler: async (ctx, [h, config]) => {
    const loc = await ctx.kernel.chain.getTransactionLocation(h);
    if (!loc) throw new AshlarError(ErrorCodes.EXECUTION, 'transaction not found');
    const [trace] = await traceBlock(ctx.kernel, loc.block, config, (i) => i === loc.index);
    return trace.result;
  },
});
