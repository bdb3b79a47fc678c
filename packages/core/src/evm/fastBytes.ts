/**
 * Byte and number conversions of @ethereumjs/util 10.1.3 (and @ethereumjs/evm's
 * `setLengthLeftStorage`) with the same results and errors, minus their detours: `bigIntToBytes`
 * printed the number as hex, prefixed it, matched the prefix with a regular expression, checked
 * it was hex and decoded it; `setLengthLeft` built its padded copy from two array spreads through
 * iterators; `bytesToBigInt` and `bytesToHex` went through a Buffer made per call. The opcode
 * handlers, the journal and the original-storage cache call them several times per SLOAD,
 * SSTORE, LOG and CALLDATALOAD (see reboundEngine.ts, which hands them these instead).
 *
 * Anything outside the common case (not a Uint8Array, a negative number, little-endian,
 * truncation) is passed to the original, so errors stay the originals' own.
 */
import {
  bigIntToBytes as bigIntToBytesOrig,
  bytesToBigInt as bytesToBigIntOrig,
  bytesToHex as bytesToHexOrig,
  bytesToUnprefixedHex as bytesToUnprefixedHexOrig,
  hexToBytes as hexToBytesOrig,
  setLengthLeft as setLengthLeftOrig,
  setLengthRight as setLengthRightOrig,
  unprefixedHexToBytes as unprefixedHexToBytesOrig,
} from '@ethereumjs/util';
import { hexKey } from '../chain/stateCacheKeys.js';

/** Value of each hex digit (0-9, a-f, A-F) by char code; 255 for any other code below 128. */
const HEX_VALUE = (() => {
  const t = new Uint8Array(128).fill(255);
  for (let d = 0; d < 10; d++) t[48 + d] = d;
  for (let d = 0; d < 6; d++) {
    t[97 + d] = 10 + d;
    t[65 + d] = 10 + d;
  }
  return t;
})();

/** The bytes of hex digits `hex[from..]` (an odd count read with a leading 0), or undefined if one is not a digit. */
function decodeHex(hex: string, from: number): Uint8Array | undefined {
  const digits = hex.length - from;
  const out = new Uint8Array((digits + 1) >> 1);
  let i = from;
  let j = 0;
  if (digits % 2 === 1) {
    const c = hex.charCodeAt(i++);
    const v = c < 128 ? HEX_VALUE[c] : 255;
    if (v === 255) return undefined;
    out[j++] = v;
  }
  for (; i < hex.length; i += 2) {
    const a = hex.charCodeAt(i);
    const b = hex.charCodeAt(i + 1);
    const hi = a < 128 ? HEX_VALUE[a] : 255;
    const lo = b < 128 ? HEX_VALUE[b] : 255;
    if (hi === 255 || lo === 255) return undefined;
    out[j++] = (hi << 4) | lo;
  }
  return out;
}

/** `hexToBytes(hex)`: the bytes of 0x-prefixed hex (an odd digit count padded with a leading 0). */
export function hexToBytes(hex: string): Uint8Array {
  if (typeof hex !== 'string' || !hex.startsWith('0x')) return hexToBytesOrig(hex as `0x${string}`);
  return decodeHex(hex, 2) ?? hexToBytesOrig(hex as `0x${string}`);
}

/** `unprefixedHexToBytes(hex)`: the bytes of unprefixed hex (an odd digit count padded with a leading 0). */
export function unprefixedHexToBytes(hex: string): Uint8Array {
  if (typeof hex !== 'string' || hex.startsWith('0x')) return unprefixedHexToBytesOrig(hex);
  return decodeHex(hex, 0) ?? unprefixedHexToBytesOrig(hex);
}

/** Whether `v` is a Uint8Array as @ethereumjs/util's assertIsBytes sees it (any subclass). */
const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array;

/** `setLengthLeft(msg, length, opts)`: msg itself at that length, else a zero-padded copy. */
export function setLengthLeft(msg: Uint8Array, length: number, opts?: { allowTruncate?: boolean }): Uint8Array {
  if (!isBytes(msg) || msg.length > length || opts !== undefined) return setLengthLeftOrig(msg, length, opts);
  if (msg.length === length) return msg;
  const out = new Uint8Array(length);
  out.set(msg, length - msg.length);
  return out;
}

/** `setLengthRight(msg, length, opts)`: msg itself at that length, else a zero-padded copy. */
export function setLengthRight(msg: Uint8Array, length: number, opts?: { allowTruncate?: boolean }): Uint8Array {
  if (!isBytes(msg) || msg.length > length || opts !== undefined) return setLengthRightOrig(msg, length, opts);
  if (msg.length === length) return msg;
  const out = new Uint8Array(length);
  out.set(msg, 0);
  return out;
}

/** `bigIntToBytes(num)`: the minimal big-endian bytes of num ≥ 0 (one zero byte for 0). */
export function bigIntToBytes(num: bigint, littleEndian = false): Uint8Array {
  if (typeof num !== 'bigint' || num < 0n || littleEndian) return bigIntToBytesOrig(num, littleEndian);
  const hex = num.toString(16);
  const n = hex.length;
  const out = new Uint8Array((n + 1) >> 1);
  let pos = out.length - 1;
  let i = n;
  // (toString(16) writes lowercase digits only)
  while (i >= 2) {
    out[pos--] = (HEX_VALUE[hex.charCodeAt(i - 2)] << 4) | HEX_VALUE[hex.charCodeAt(i - 1)];
    i -= 2;
  }
  if (i === 1) out[0] = HEX_VALUE[hex.charCodeAt(0)];
  return out;
}

/** `bytesToBigInt(bytes)`: the big-endian unsigned value (0 for no bytes). */
export function bytesToBigInt(bytes: Uint8Array, littleEndian = false): bigint {
  if (!isBytes(bytes) || littleEndian) return bytesToBigIntOrig(bytes, littleEndian);
  const n = bytes.length;
  if (n === 0) return 0n;
  if (n === 1) return BigInt(bytes[0]);
  if (n <= 6) {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + bytes[i];
    return BigInt(v);
  }
  return BigInt(`0x${hexKey(bytes)}`);
}

/** `bytesToUnprefixedHex(bytes)`: lowercase hex, no prefix. */
export function bytesToUnprefixedHex(bytes: Uint8Array): string {
  if (!isBytes(bytes)) return bytesToUnprefixedHexOrig(bytes);
  return hexKey(bytes);
}

/** `bytesToHex(bytes)`: lowercase hex with the 0x prefix. */
export function bytesToHex(bytes: Uint8Array): `0x${string}` {
  if (!isBytes(bytes)) return bytesToHexOrig(bytes);
  return `0x${hexKey(bytes)}`;
}

/**
 * @ethereumjs/evm's `setLengthLeftStorage(value)`: an empty array when every byte is zero (or
 * there are none), else value left-padded to 32 bytes (`setLengthLeft`'s error past 32).
 */
export function makeSetLengthLeftStorage(
  original: (value: Uint8Array) => Uint8Array,
): (value: Uint8Array) => Uint8Array {
  return function setLengthLeftStorage(value: Uint8Array): Uint8Array {
    if (!isBytes(value) || value.length > 32) return original(value);
    let zero = true;
    for (let i = 0; i < value.length; i++) {
      if (value[i] !== 0) {
        zero = false;
        break;
      }
    }
    if (zero) return new Uint8Array(0);
    return setLengthLeft(value, 32);
  };
}

const TWO_POW256 = 2n ** 256n;

/**
 * @ethereumjs/evm's `mod(a, b)` (opcodes/util.js: `a % b`, plus b when negative): for b = 2^256,
 * which ADD, SUB, MUL and DIV wrap every result with, `BigInt.asUintN(256, a)` is the same number
 * without a bigint division (~30 ns instead of ~240 for a 256-bit word); any other b goes to the
 * original.
 */
export function makeMod(original: (a: bigint, b: bigint) => bigint): (a: bigint, b: bigint) => bigint {
  return function mod(a: bigint, b: bigint): bigint {
    if (b === TWO_POW256 && typeof a === 'bigint') return BigInt.asUintN(256, a);
    return original(a, b);
  };
}
