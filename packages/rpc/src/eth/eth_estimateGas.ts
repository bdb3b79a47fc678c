import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { blockTagOrHash, optional, stateOverrides, transactionRequest, withDefault, LATEST } from '../params/index.js';
import { toBlockRef } from '../shared/state.js';

export const eth_estimateGas = defineRpcMethod({
  name: 'eth_estimateGas',
  params: [
    transactionRequest('transaction'),
    withDefault(blockTagOrHash('block'), LATEST),
    optional(stateOverrides('stateOverrides')),
  ],
  handler: async (ctx, [req, block, overrides]) => {
    const sb = await ctx.kernel.chain.requireBlock(toBlockRef(block));
    return toQuantity(await ctx.kernel.executor.estimateGas(req, sb, overrides));
  },
});
