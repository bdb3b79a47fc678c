// Integers as Hardhat, Anvil and Erigon read them: a JSON number, a 0x-hex string or a decimal
// string. geth's hexutil (decode.ts) accepts only the hex form without leading zeros; the
// namespaces whose real clients send the other forms use these decoders instead
// (docs/param-shapes.md).
import type { ParamParser } from '@ashlar/core';
import { DecodeError, jsonKind } from './decode.js';
import { makeParser } from './parser.js';

const HEX_RE = /^0[xX][0-9a-fA-F]*$/;
const DECIMAL_RE = /^[0-9]+$/;

/**
 * A non-negative integer of at most `bits` bits: a JSON number (a safe integer: larger ones have
 * already lost digits in JSON.parse), `0x`-hex (leading zeros allowed; a bare `0x` is 0, as
 * Hardhat and Anvil read it) or decimal digits. Errors name the problem; parsers add the argument.
 */
export function decodeLooseInteger(v: unknown, bits = 256): bigint {
  let n: bigint;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || !Number.isInteger(v)) throw new DecodeError(`${v} is not an integer`);
    if (v < 0) throw new DecodeError(`${v} is negative`);
    if (!Number.isSafeInteger(v)) throw new DecodeError(`${v} is above 2^53-1: send it as a hex string`);
    n = BigInt(v);
  } else if (typeof v === 'string') {
    if (v.startsWith('-')) throw new DecodeError(`${v} is negative`);
    if (HEX_RE.test(v)) n = v.length === 2 ? 0n : BigInt(`0x${v.slice(2)}`);
    else if (DECIMAL_RE.test(v)) n = BigInt(v);
    else throw new DecodeError(`${JSON.stringify(v)} is not a hex or decimal integer`);
  } else {
    throw new DecodeError(`expected a number, a hex or a decimal string, got ${jsonKind(v)}`);
  }
  if (n >= 1n << BigInt(bits)) throw new DecodeError(`${v} is above 2^${bits}-1`);
  return n;
}

/** decodeLooseInteger as a JS number, for counts and page sizes (at most `bits` ≤ 53 bits). */
export function decodeLooseCount(v: unknown, bits: number): number {
  return Number(decodeLooseInteger(v, bits));
}

/** A loose integer parameter of at most `bits` bits → bigint. */
export const looseInteger = (name: string, bits = 256): ParamParser<bigint> =>
  makeParser(name, (v) => decodeLooseInteger(v, bits));

/** A loose integer parameter of at most `bits` (≤ 53) bits → number (counts, page sizes). */
export const looseCount = (name: string, bits: number): ParamParser<number> =>
  makeParser(name, (v) => decodeLooseCount(v, bits));
