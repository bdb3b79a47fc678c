import { defineRpcMethod } from '@ashlar/core';

/** True while the node makes blocks on its own (automine or interval), as Hardhat answers. */
export const eth_mining = defineRpcMethod({
  name: 'eth_mining',
  params: [],
  handler: (ctx) => ctx.services.miner.automine || ctx.services.miner.blockTime > 0,
});
