import { defineRpcMethod, toQuantity } from '@ashlar/core';

export const eth_chainId = defineRpcMethod({
  name: 'eth_chainId',
  params: [],
  handler: (ctx) => toQuantity(ctx.kernel.options.chain.chainId),
});
