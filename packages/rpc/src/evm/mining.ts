import { AshlarError, ErrorCodes, defineRpcMethod, mineBlocks, toQuantity } from '@ashlar/core';
import { MAX_TIMESTAMP, mineOptions } from '../dev/params.js';
import { boolean, optional } from '../params/index.js';

const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * Mines one block now (with the pool's executable transactions); optional timestamp (seconds),
 * given as Hardhat and Anvil take it: a number, a hex or decimal string, or `{ timestamp, blocks }`
 * (Anvil, Ganache: `blocks` blocks, the first at `timestamp`, the rest mined as hardhat_mine
 * mines them, 1 s apart). Returns "0x0" as Hardhat.
 */
export const evm_mine = defineRpcMethod({
  name: 'evm_mine',
  params: [optional(mineOptions('timestamp'))],
  handler: async (ctx, [options]) => {
    const timestamp = options?.timestamp;
    const blocks = options?.blocks ?? 1n;
    const chain = ctx.services.chain;
    if (timestamp !== undefined && timestamp <= chain.head.block.header.timestamp) {
      throw new AshlarError(
        ErrorCodes.INVALID_PARAMS,
        `invalid argument 0 (timestamp): ${timestamp} is not after the current head's timestamp ${chain.head.block.header.timestamp}`,
      );
    }
    if (timestamp !== undefined && timestamp > MAX_TIMESTAMP) {
      throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid argument 0 (timestamp): ${timestamp} is past 2^64-1`);
    }
    const svc = ctx.services;
    if (blocks === 1n) {
      await svc.miner.mine({ timestamp });
      return toQuantity(0n);
    }
    if (blocks === 0n) return toQuantity(0n); // Anvil mines none
    const dev = svc.dev;
    if (!dev)
      throw new AshlarError(
        ErrorCodes.INVALID_PARAMS,
        'invalid argument 0 (timestamp): blocks > 1 needs the rpc:dev plugin',
      );
    if (chain.head.block.header.number + blocks > MAX_UINT64) {
      throw new AshlarError(
        ErrorCodes.INVALID_PARAMS,
        `invalid argument 0 (timestamp): field "blocks": ${blocks} more blocks would pass block number 2^64-1`,
      );
    }
    // The last block's time (1 s apart from the first) must stay a uint64, as hardhat_mine checks.
    const now = BigInt(Math.floor(Date.now() / 1000)) + svc.miner.timeOffset;
    const first = timestamp ?? (now > chain.head.block.header.timestamp ? now : chain.head.block.header.timestamp + 1n);
    if (first + blocks - 1n > MAX_UINT64) {
      throw new AshlarError(
        ErrorCodes.INVALID_PARAMS,
        `invalid argument 0 (timestamp): field "blocks": ${blocks} blocks from ${first} would pass timestamp 2^64-1`,
      );
    }
    if (timestamp !== undefined) svc.miner.nextTimestamp = timestamp;
    await mineBlocks({ chain, miner: svc.miner, mempool: svc.mempool, reserved: dev.reserved }, blocks, 1n);
    return toQuantity(0n);
  },
});

/** Turns automine on or off; turning it on mines what is waiting. */
export const evm_setAutomine = defineRpcMethod({
  name: 'evm_setAutomine',
  params: [boolean('enabled')],
  handler: async (ctx, [enabled]) => {
    const miner = ctx.services.miner;
    miner.automine = enabled;
    if (enabled && ctx.services.mempool.size > 0) await miner.mine();
    return true;
  },
});
