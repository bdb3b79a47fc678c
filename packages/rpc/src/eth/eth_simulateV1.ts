import { defineRpcMethod } from '@ashlar/core';
import { LATEST, blockTagOrHash, withDefault } from '../params/index.js';
import { toBlockRef } from '../shared/state.js';
import { formatSimulatedBlock } from '../simulate/format.js';
import { simOptions } from '../simulate/params.js';
import { simulate } from '../simulate/simulator.js';

/** Simulates blocks of calls on top of a block (execution-apis eth_simulateV1); nothing is kept. */
export const eth_simulateV1 = defineRpcMethod({
  name: 'eth_simulateV1',
  params: [simOptions('opts'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: async (ctx, [opts, block]) => {
    const base = await ctx.services.chain.requireBlock(toBlockRef(block));
    const blocks = await simulate(ctx.services, base, opts);
    return blocks.map((b) => formatSimulatedBlock(b, opts.returnFullTransactions));
  },
});
