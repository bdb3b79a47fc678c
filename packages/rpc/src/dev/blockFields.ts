// Fields of the blocks to come that Hardhat and Anvil let a test choose: prevRandao, and a fixed
// step between timestamps.
import { defineRpcMethod } from '@ashlar/core';
import { argumentError, hash } from '../params/index.js';
import { MAX_TIMESTAMP, quantityOrNumber } from './params.js';

/** Hardhat's: the prevRandao (mixHash, `block.prevrandao`) of the next block; later blocks derive theirs again. */
export const hardhat_setPrevRandao = defineRpcMethod({
  name: 'hardhat_setPrevRandao',
  params: [hash('prevRandao')],
  handler: (ctx, [value]) => {
    ctx.services.miner.nextPrevRandao = value;
    return true;
  },
});

/**
 * Anvil's: every later block's timestamp is its parent's + `seconds` (at least + 1: a block's
 * time must pass its parent's), until removed. evm_setNextBlockTimestamp still wins for the
 * block it names. Answers null, as Anvil.
 */
export const anvil_setBlockTimestampInterval = defineRpcMethod({
  name: 'anvil_setBlockTimestampInterval',
  params: [quantityOrNumber('seconds')],
  handler: (ctx, [seconds]) => {
    if (seconds > MAX_TIMESTAMP) throw argumentError(0, 'seconds', `${seconds} is past 2^64-1`);
    ctx.services.miner.timestampInterval = seconds;
    return null;
  },
});

/** Anvil's: back to the clock (plus the evm_increaseTime offset) for the blocks to come; true, as Anvil. */
export const anvil_removeBlockTimestampInterval = defineRpcMethod({
  name: 'anvil_removeBlockTimestampInterval',
  params: [],
  handler: (ctx) => {
    const miner = ctx.services.miner;
    const had = miner.timestampInterval !== undefined;
    miner.timestampInterval = undefined;
    return had;
  },
});
