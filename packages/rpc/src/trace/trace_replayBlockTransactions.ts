import { AshlarError, ErrorCodes, defineRpcMethod } from '@ashlar/core';
import { traceBlock } from '../debug/replay.js';
import { blockTag } from '../params/index.js';
import { findBlock } from '../shared/blocks.js';
import { ParityTracer } from './ParityTracer.js';
import { traceTypes } from './traceTypes.js';

/** trace_replayTransaction for every transaction of a block, each with its `transactionHash`. */
export const trace_replayBlockTransactions = defineRpcMethod({
  name: 'trace_replayBlockTransactions',
  params: [blockTag('block'), traceTypes('traceTypes')],
  handler: async (ctx, [block, types]) => {
    const sb = await findBlock(ctx.services, block);
    if (!sb) throw new AshlarError(ErrorCodes.BLOCK_NOT_FOUND, 'block not found');
    if (sb.number === 0n) return [];
    const traces = await traceBlock(ctx.services, sb, () => new ParityTracer(types));
    return traces.map((t) => ({ ...t.result, transactionHash: t.txHash }));
  },
});
