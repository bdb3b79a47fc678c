import { defineRpcMethod } from '@ashlar/core';
import { traceBlock } from '../debug/replay.js';
import { blockTag } from '../params/index.js';
import { findBlock } from '../shared/blocks.js';
import { ParityTracer } from './ParityTracer.js';
import { positionIn } from './positions.js';

/**
 * The Parity traces of every transaction of a block, in order (null for an unknown block). No
 * block-reward traces: a proof-of-stake dev chain pays none.
 */
export const trace_block = defineRpcMethod({
  name: 'trace_block',
  params: [blockTag('block')],
  handler: async (ctx, [block]) => {
    const sb = await findBlock(ctx.services, block);
    if (!sb) return null;
    if (sb.number === 0n) return [];
    const pos = positionIn(sb);
    const traces = await traceBlock(ctx.services, sb, () => new ParityTracer({ trace: true, stateDiff: false }, pos));
    return traces.flatMap((t) => t.result.trace);
  },
});
