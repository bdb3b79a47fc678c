// Parsers of the dev methods' parameters, where Hardhat and Anvil accept more than geth's hex.
import type { ParamParser } from '@ashlar/core';
import { DecodeError, decodeQuantity, jsonKind } from '../params/decode.js';
import { makeParser } from '../params/parser.js';

/**
 * A non-negative integer as a JSON number or a hex QUANTITY (Hardhat takes both for
 * evm_increaseTime, evm_setNextBlockTimestamp and evm_setIntervalMining).
 */
export function decodeQuantityOrNumber(v: unknown): bigint {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new DecodeError(`${v} is not an integer`);
    if (v < 0) throw new DecodeError(`${v} is negative`);
    return BigInt(v);
  }
  if (typeof v === 'string' && v.startsWith('-')) throw new DecodeError(`${v} is negative`);
  if (typeof v !== 'string') throw new DecodeError(`expected a number or a hex quantity, got ${jsonKind(v)}`);
  return decodeQuantity(v);
}

/** Block timestamps are uint64 (yellow paper, geth): a later time can never be mined. */
export const MAX_TIMESTAMP = 2n ** 64n - 1n;

export const quantityOrNumber = (name: string): ParamParser<bigint> => makeParser(name, decodeQuantityOrNumber);

/** A QUANTITY that must not be negative, saying so when a client sends "-0x…" (a balance, say). */
export const nonNegativeQuantity = (name: string): ParamParser<bigint> =>
  makeParser(name, (v) => {
    if (typeof v === 'string' && v.startsWith('-')) throw new DecodeError(`${name} must not be negative, got ${v}`);
    if (typeof v === 'number' && v < 0) throw new DecodeError(`${name} must not be negative, got ${v}`);
    return decodeQuantityOrNumber(v);
  });
