import { AshlarError, defineRpcMethod, ErrorCodes, mineBlocks } from '@ashlar/core';
import { optional } from '../params/index.js';
import { quantityOrNumber } from './params.js';
import { dev } from './services.js';

const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * Mines `blocks` blocks (default 1), `interval` seconds apart (default 1; 0, which viem sends
 * by default, also means 1: a block's timestamp must pass its parent's). Empty blocks beyond
 * the first few are reserved, not built: a million of them cost what one does.
 */
export const hardhat_mine = defineRpcMethod({
  name: 'hardhat_mine',
  aliases: ['anvil_mine'],
  params: [optional(quantityOrNumber('blocks')), optional(quantityOrNumber('interval'))],
  handler: async (ctx, [blocks, interval]) => {
    const svc = ctx.services;
    const count = blocks ?? 1n;
    const step = interval === undefined || interval === 0n ? 1n : interval;
    // Block numbers and timestamps are uint64 (geth, the yellow paper): refuse runs that pass
    // them here, naming the argument, instead of failing deep in block building.
    const head = svc.chain.head.block.header;
    if (head.number + count > MAX_UINT64) {
      throw new AshlarError(
        ErrorCodes.INVALID_PARAMS,
        `invalid argument 0 (blocks): ${count} more blocks would pass block number 2^64-1`,
      );
    }
    const start =
      head.timestamp > BigInt(Math.floor(Date.now() / 1000)) ? head.timestamp : BigInt(Math.floor(Date.now() / 1000));
    if (start + count * step + svc.miner.timeOffset > MAX_UINT64) {
      throw new AshlarError(
        ErrorCodes.INVALID_PARAMS,
        `invalid argument ${interval === undefined ? 0 : 1} (${interval === undefined ? 'blocks' : 'interval'}): the blocks' timestamps would pass 2^64-1`,
      );
    }
    await mineBlocks(
      { chain: svc.chain, miner: svc.miner, mempool: svc.mempool, reserved: dev(svc).reserved },
      count,
      step,
    );
    return true;
  },
});
