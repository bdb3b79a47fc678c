import { defineRpcMethod, toData } from '@ashlar/core';
import { blockTagOrHash, optional, stateOverrides, transactionRequest, withDefault, LATEST } from '../params/index.js';
import { toBlockRef } from '../shared/state.js';

export const eth_call = defineRpcMethod({
  name: 'eth_call',
  params: [
    transactionRequest('transaction'),
    withDefault(blockTagOrHash('block'), LATEST),
    optional(stateOverrides('stateOverrides')),
  ],
  handler: async (ctx, [req, block, overrides]) => {
    const sb = await ctx.kernel.chain.requireBlock(toBlockRef(block));
    return toData(await ctx.kernel.executor.call(req, sb, overrides));
  },
});
