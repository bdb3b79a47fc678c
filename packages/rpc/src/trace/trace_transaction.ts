import { defineRpcMethod } from '@ashlar/core';
import { traceBlock } from '../debug/replay.js';
import { hash } from '../params/index.js';
import { ParityTracer } from './ParityTracer.js';
import { positionIn } from './positions.js';

/** The Parity traces of a mined transaction (null when unknown, as OpenEthereum and Anvil). */
export const trace_transaction = defineRpcMethod({
  name: 'trace_transaction',
  params: [hash('transactionHash')],
  handler: async (ctx, [h]) => {
    const loc = await ctx.services.chain.getTransactionLocation(h);
    if (!loc) return null;
    const pos = positionIn(loc.block);
    const [t] = await traceBlock(
      ctx.services,
      loc.block,
      () => new ParityTracer({ trace: true, stateDiff: false }, pos),
      (i) => i === loc.index,
    );
    return t.result.trace;
  },
});
