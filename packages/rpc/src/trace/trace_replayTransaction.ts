import { AshlarError, ErrorCodes, defineRpcMethod } from '@ashlar/core';
import { traceBlock } from '../debug/replay.js';
import { hash } from '../params/index.js';
import { ParityTracer } from './ParityTracer.js';
import { traceTypes } from './traceTypes.js';

/** OpenEthereum's trace_replayTransaction: output, trace and/or stateDiff of a mined transaction. */
export const trace_replayTransaction = defineRpcMethod({
  name: 'trace_replayTransaction',
  params: [hash('transactionHash'), traceTypes('traceTypes')],
  handler: async (ctx, [h, types]) => {
    const loc = await ctx.services.chain.getTransactionLocation(h);
    if (!loc) throw new AshlarError(ErrorCodes.EXECUTION, 'transaction not found');
    const [t] = await traceBlock(
      ctx.services,
      loc.block,
      () => new ParityTracer(types),
      (i) => i === loc.index,
    );
    return t.result;
  },
});
