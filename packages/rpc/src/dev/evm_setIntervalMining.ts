import { defineRpcMethod } from '@ashlar/core';
import { DecodeError, makeParser } from '../params/index.js';
import { decodeQuantityOrNumber } from './params.js';

/**
 * The interval in seconds. Hardhat reads this method's number in milliseconds, Anvil in seconds,
 * and clients (viem's test client) send each its own unit. A number below 1000 is read as
 * seconds: taken as milliseconds, Anvil's `5` would mine a block every 5 ms and flood the chain,
 * while Hardhat's sub-second intervals are rare, and can still be asked for exactly as a range.
 * A [min, max] range is Hardhat's only, so always milliseconds (a random interval within it).
 */
const intervalSeconds = makeParser('interval', (v): number => {
  if (Array.isArray(v)) {
    if (v.length !== 2) throw new DecodeError('a range is [min, max]');
    const [min, max] = v.map(decodeQuantityOrNumber);
    if (min > max) throw new DecodeError(`range minimum ${min} is above its maximum ${max}`);
    return (Number(min) + Math.floor(Math.random() * Number(max - min + 1n))) / 1000;
  }
  const n = Number(decodeQuantityOrNumber(v));
  return n >= 1000 ? n / 1000 : n;
});

/** Interval mining (0 turns it off); see intervalSeconds for the unit. */
export const evm_setIntervalMining = defineRpcMethod({
  name: 'evm_setIntervalMining',
  params: [intervalSeconds],
  handler: (ctx, [seconds]) => {
    ctx.services.miner.setInterval(seconds);
    return true;
  },
});

/** Interval mining in seconds (Anvil's unit; 0 turns it off). */
export const anvil_setIntervalMining = defineRpcMethod({
  name: 'anvil_setIntervalMining',
  params: [makeParser('seconds', decodeQuantityOrNumber)],
  handler: (ctx, [seconds]) => {
    ctx.services.miner.setInterval(Number(seconds));
    return true;
  },
});
