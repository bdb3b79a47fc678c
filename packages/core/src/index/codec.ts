// Fixed-width binary pieces of index keys and records. Keys must sort numerically as bytes, so
// every number in a key is big-endian and of one width; records use the same helpers.
//
// None of them reads `.buffer` of its argument or of a new array: V8 keeps a typed array of up to
// 64 bytes inside its object, and `.buffer` then moves the bytes out into an ArrayBuffer of their
// own (a malloc, a copy, an external-memory record for the GC): ~0.5-1 µs a call measured alone,
// and ~12 µs of each automined ERC-20 transfer's block in the index's key and amount helpers.
import { concat, readU32, readU64, u32, u64, word32, writeWord32 } from '../util/hex.js';

// The 8- and 4-byte helpers are util/hex's (the same no-`.buffer` arithmetic, shared with the chain store).
export { concat, readU32, readU64, u32, u64 };

const MAX_U256 = (1n << 256n) - 1n;

export function u8(n: number): Uint8Array {
  return Uint8Array.of(n);
}

export function u16(n: number): Uint8Array {
  const b = new Uint8Array(2);
  b[0] = n >>> 8;
  b[1] = n & 0xff;
  return b;
}

export function readU16(b: Uint8Array, offset = 0): number {
  return (b[offset] << 8) | b[offset + 1];
}

const MASK_32 = 0xffff_ffffn;

/** 32-byte big-endian; values outside 0..2^256-1 are clamped (a token may log anything). */
export function u256(n: bigint): Uint8Array {
  const b = new Uint8Array(32);
  putU256(b, 0, n);
  return b;
}

// The put* helpers write a field in place, so a record or key is one array allocated once at
// its full length, not a concat of an array per field (an automined block's index entries made
// some sixty small arrays that way). They write the same bytes as the helper of their name.

/** Writes `u256(n)` at `o` (the bytes there must be zero: a new array's). */
export function putU256(b: Uint8Array, o: number, n: bigint): void {
  let v = n < 0n ? 0n : n > MAX_U256 ? MAX_U256 : n;
  // 32-bit words: a handful of BigInt operations instead of one per byte.
  for (let off = o + 28; off >= o && v > 0n; off -= 4) {
    const w = Number(v & MASK_32);
    b[off] = w >>> 24;
    b[off + 1] = (w >>> 16) & 0xff;
    b[off + 2] = (w >>> 8) & 0xff;
    b[off + 3] = w & 0xff;
    v >>= 32n;
  }
}

const TWO_32 = 0x1_0000_0000;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Writes `u64(n)` at `o`. */
export function putU64(b: Uint8Array, o: number, n: bigint | number): void {
  const v = typeof n === 'number' ? n : n >= 0n && n <= MAX_SAFE ? Number(n) : -1;
  if (v < 0 || !Number.isInteger(v)) {
    b.set(u64(n), o);
    return;
  }
  const hi = Math.floor(v / TWO_32);
  writeWord32(b, o, hi);
  writeWord32(b, o + 4, v - hi * TWO_32);
}

/** Writes `u32(n)` at `o`. */
export const putU32 = (b: Uint8Array, o: number, n: number): void => writeWord32(b, o, n);

/** Copies `src` to `o` (a loop: an address or a position is shorter than set()'s call costs). */
export function putBytes(b: Uint8Array, o: number, src: Uint8Array): void {
  const n = src.length;
  if (n > 32) {
    b.set(src, o);
    return;
  }
  for (let i = 0; i < n; i++) b[o + i] = src[i];
}

export function readU256(b: Uint8Array, offset = 0): bigint {
  if (offset + 32 > b.length) throw new RangeError('readU256 past the end of its bytes');
  let v = 0n;
  for (let o = offset; o < offset + 32; o += 4) {
    const w = word32(b, o);
    // Leading zero words (most amounts) cost no BigInt operation.
    if (v === 0n) {
      if (w !== 0) v = BigInt(w);
    } else v = (v << 32n) | BigInt(w);
  }
  return v;
}

type Slice = (this: Uint8Array, start: number, end: number) => string;
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice?: Slice }).latin1Slice;

/**
 * A byte string as a Map or table key: latin1 keeps one char per byte (so string order is byte
 * order). Node's native `latin1Slice` accepts any Uint8Array and makes a flat string without
 * touching `.buffer` (~80 ns for 20-113 bytes, where `String.fromCharCode.apply` over the array
 * took ~260 ns: the index makes some thirty of these a block). A Node without it falls back.
 */
export const keyString: (b: Uint8Array) => string =
  typeof latin1Slice === 'function'
    ? (b) => latin1Slice.call(b, 0, b.length)
    : (b) =>
        b.length <= 64
          ? String.fromCharCode.apply(null, b as unknown as number[])
          : Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

/** Whether two byte strings are equal (for 20-byte addresses: no key string built for the test). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Lexicographic byte comparison (the order of the store). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** The smallest key greater than every key starting with `prefix` (an exclusive upper bound). */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  const out = Uint8Array.from(prefix);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] < 0xff) {
      out[i]++;
      return out.subarray(0, i + 1);
    }
  }
  // all 0xff: no finite bound; a longer all-0xff key is larger than any real key of ours
  return concat(prefix, new Uint8Array(64).fill(0xff));
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** u16 length + UTF-8 bytes; null as length 0xffff. */
export function encodeText(s: string | null): Uint8Array {
  if (s === null) return u16(0xffff);
  const bytes = textEncoder.encode(s).subarray(0, 0xfffe);
  return concat(u16(bytes.length), bytes);
}

export function decodeText(b: Uint8Array, offset: number): { value: string | null; next: number } {
  const len = readU16(b, offset);
  if (len === 0xffff) return { value: null, next: offset + 2 };
  return { value: textDecoder.decode(b.subarray(offset + 2, offset + 2 + len)), next: offset + 2 + len };
}

export function utf8(s: string): Uint8Array {
  return textEncoder.encode(s);
}
