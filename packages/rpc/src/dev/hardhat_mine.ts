import { defineRpcMethod, mineBlocks } from '@ashlar/core';
import { optional, quantity } from '../params/index.js';
import { dev } from './services.js';

/**
 * Mines `blocks` blocks (default 1), `interval` seconds apart (default 1; 0, which viem sends
 * by default, also means 1: a block's timestamp must pass its parent's). Empty blocks beyond
 * the first few are reserved, not built: a million of them cost what one does.
 */
export const hardhat_mine = defineRpcMethod({
  name: 'hardhat_mine',
  aliases: ['anvil_mine'],
  params: [optional(quantity('blocks')), optional(quantity('interval'))],
  handler: async (ctx, [blocks, interval]) => {
    const k = ctx.kernel;
    await mineBlocks(
      { chain: k.chain, miner: k.miner, mempool: k.mempool, reserved: dev(k).reserved },
      blocks ?? 1n,
      interval === undefined || interval === 0n ? 1n : interval,
    );
    return true;
  },
});
