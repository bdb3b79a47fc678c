import { defineRpcMethod } from '@ashlar/core';

export const eth_coinbase = defineRpcMethod({
  name: 'eth_coinbase',
  params: [],
  handler: (ctx) => ctx.services.miner.coinbase,
});
