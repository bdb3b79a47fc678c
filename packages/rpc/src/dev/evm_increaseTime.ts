import { defineRpcMethod } from '@ashlar/core';
import { argumentError } from '../params/index.js';
import { MAX_TIMESTAMP, quantityOrNumber } from './params.js';

/** Moves the miner's clock forward; answers the total offset in seconds as a decimal string (Hardhat's answer). */
export const evm_increaseTime = defineRpcMethod({
  name: 'evm_increaseTime',
  aliases: ['anvil_increaseTime'],
  params: [quantityOrNumber('seconds')],
  handler: (ctx, [seconds]) => {
    const miner = ctx.services.miner;
    // The clock must stay where blocks can be mined: timestamps are uint64.
    if (BigInt(Math.floor(Date.now() / 1000)) + miner.timeOffset + seconds > MAX_TIMESTAMP) {
      throw argumentError(0, 'seconds', `${seconds} s would move the clock past 2^64-1`);
    }
    miner.timeOffset += seconds;
    return miner.timeOffset.toString();
  },
});
