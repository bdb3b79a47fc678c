import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { dev } from './services.js';

/** Takes a snapshot of the chain, the pool and the miner's clock; returns its id ("0x1", "0x2", … as Hardhat). */
export const evm_snapshot = defineRpcMethod({
  name: 'evm_snapshot',
  aliases: ['anvil_snapshot'],
  params: [],
  handler: async (ctx) => toQuantity(await dev(ctx.services).snapshots.take()),
});
