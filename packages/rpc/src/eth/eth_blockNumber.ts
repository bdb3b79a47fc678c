import { defineRpcMethod, toQuantity } from '@ashlar/core';

export const eth_blockNumber = defineRpcMethod({
  name: 'eth_blockNumber',
  params: [],
  handler: (ctx) => toQuantity(ctx.services.chain.head.number),
});
