import { bigIntToUnpaddedBytes } from '@ethereumjs/util';

const EMPTY = new Uint8Array(0);
const MAX_SAFE = 0x1f_ffff_ffff_ffffn;

/**
 * @ethereumjs/util's bigIntToUnpaddedBytes (minimal big-endian, none for 0) without its hex round
 * trip (a string, a parse, a strip: ~0.6 µs a number; a block's header, receipts, call frames and
 * records convert a dozen or two) for values below 2^53; others take the original. Tests compare
 * the two.
 */
export function unpaddedBytes(n: bigint): Uint8Array {
  if (n === 0n) return EMPTY;
  if (n < 0n || n > MAX_SAFE) return bigIntToUnpaddedBytes(n);
  let v = Number(n);
  let len = 0;
  for (let t = v; t > 0; t = Math.floor(t / 256)) len++;
  const out = new Uint8Array(len);
  for (let i = len - 1; i >= 0; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  return out;
}

/** @ethereumjs/util's bigIntToBytes for n ≥ 0: as unpaddedBytes, but 0 is one zero byte. */
export function minimalBytes(n: bigint): Uint8Array {
  return n === 0n ? Uint8Array.of(0) : unpaddedBytes(n);
}
