import { defineRpcMethod } from '@ashlar/core';
import { quantityOrNumber } from './params.js';

/** Moves the miner's clock forward; answers the total offset in seconds as a decimal string (Hardhat's answer). */
export const evm_increaseTime = defineRpcMethod({
  name: 'evm_increaseTime',
  aliases: ['anvil_increaseTime'],
  params: [quantityOrNumber('seconds')],
  handler: (ctx, [seconds]) => {
    const miner = ctx.kernel.miner;
    miner.timeOffset += seconds;
    return miner.timeOffset.toString();
  },
});
