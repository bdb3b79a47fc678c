import { defineRpcMethod, toQuantity } from '@ashlar/core';

export const eth_chainId = defineRpcMethod({
  name: 'eth_chainId',
  params: [],
  handler: (ctx) => toQuantity(ctx.services.options.chain.chainId),
});
