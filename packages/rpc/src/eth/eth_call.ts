import { defineRpcMethod, toData } from '@ashlar/core';
import { blockTagOrHash, optional, stateOverrides, transactionRequest, withDefault, LATEST } from '../params/index.js';
import { execTarget } from '../shared/pendingTag.js';

export const eth_call = defineRpcMethod({
  name: 'eth_call',
  params: [
    transactionRequest('transaction'),
    withDefault(blockTagOrHash('block'), LATEST),
    optional(stateOverrides('stateOverrides')),
  ],
  handler: async (ctx, [req, block, overrides]) =>
    toData(await ctx.services.executor.call(req, await execTarget(ctx.services, block), overrides)),
});
