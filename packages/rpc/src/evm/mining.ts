import { AshlarError, ErrorCodes, defineRpcMethod, toQuantity } from '@ashlar/core';
import { MAX_TIMESTAMP } from '../dev/params.js';
import { boolean, optional, quantity } from '../params/index.js';

/** Mines one block now (with the pool's executable transactions); optional timestamp (seconds). Returns "0x0" as Hardhat. */
export const evm_mine = defineRpcMethod({
  name: 'evm_mine',
  params: [optional(quantity('timestamp'))],
  handler: async (ctx, [timestamp]) => {
    const chain = ctx.kernel.chain;
    if (timestamp !== undefined && timestamp <= chain.head.block.header.timestamp) {
      throw new AshlarError(
        ErrorCodes.INVALID_PARAMS,
        `invalid argument 0 (timestamp): ${timestamp} is not after the current head's timestamp ${chain.head.block.header.timestamp}`,
      );
    }
    if (timestamp !== undefined && timestamp > MAX_TIMESTAMP) {
      throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid argument 0 (timestamp): ${timestamp} is past 2^64-1`);
    }
    await ctx.kernel.miner.mine({ timestamp });
    return toQuantity(0n);
  },
});

/** Turns automine on or off; turning it on mines what is waiting. */
export const evm_setAutomine = defineRpcMethod({
  name: 'evm_setAutomine',
  params: [boolean('enabled')],
  handler: async (ctx, [enabled]) => {
    const miner = ctx.kernel.miner;
    miner.automine = enabled;
    if (enabled && ctx.kernel.mempool.size > 0) await miner.mine();
    return true;
  },
});
