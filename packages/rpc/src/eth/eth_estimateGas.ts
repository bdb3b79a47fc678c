import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { blockTagOrHash, optional, stateOverrides, transactionRequest, withDefault } from '../params/index.js';
import { PENDING, execTarget } from '../shared/pendingTag.js';

/** Without a block, estimates for the next block ("pending"), as Hardhat's node does (geth: latest). */
export const eth_estimateGas = defineRpcMethod({
  name: 'eth_estimateGas',
  params: [
    transactionRequest('transaction'),
    withDefault(blockTagOrHash('block'), PENDING),
    optional(stateOverrides('stateOverrides')),
  ],
  handler: async (ctx, [req, block, overrides]) =>
    toQuantity(await ctx.services.executor.estimateGas(req, await execTarget(ctx.services, block), overrides)),
});
