import { hexToBytes as fromHex } from '@ethereumjs/util';
import { flatHex } from './flatHex.js';

/** QUANTITY: 0x + lowercase hex without leading zeros. */
export function toQuantity(n: bigint | number): `0x${string}` {
  return `0x${n.toString(16)}`;
}

/** DATA: 0x + even-length lowercase hex, as one flat string (see flatHex). */
export function toData(b: Uint8Array): `0x${string}` {
  return flatHex(b);
}

export function fromData(h: string): Uint8Array {
  return fromHex(h as `0x${string}`);
}

// The fixed-width helpers below never read `.buffer` of their argument or of a new array: V8
// keeps a typed array of up to 64 bytes inside its object, and `.buffer` (a DataView needs it)
// moves the bytes out into an ArrayBuffer of their own (a malloc, a copy, an external-memory
// record for the GC): ~0.5-1 µs a call, where the arithmetic costs nanoseconds.

const TWO_32 = 0x1_0000_0000;

/** 8-byte big-endian key part: keeps numeric order in sorted key-value stores (modulo 2^64). */
export function u64(n: bigint | number): Uint8Array {
  const b = new Uint8Array(8);
  const v = typeof n === 'number' ? n : n >= 0n && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : -1;
  if (v < 0 || !Number.isInteger(v)) {
    let w = BigInt(n);
    for (let i = 7; i >= 0; i--) {
      b[i] = Number(w & 0xffn);
      w >>= 8n;
    }
    return b;
  }
  const hi = Math.floor(v / TWO_32);
  writeWord32(b, 0, hi);
  writeWord32(b, 4, v - hi * TWO_32);
  return b;
}

/** Writes `v` (taken modulo 2^32) as 4 big-endian bytes at `o`. */
export function writeWord32(b: Uint8Array, o: number, v: number): void {
  b[o] = v >>> 24;
  b[o + 1] = (v >>> 16) & 0xff;
  b[o + 2] = (v >>> 8) & 0xff;
  b[o + 3] = v & 0xff;
}

/** The 32-bit big-endian word at `o`. */
export const word32 = (b: Uint8Array, o: number): number =>
  ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;

export function readU64(b: Uint8Array, offset = 0): bigint {
  if (offset < 0 || offset + 8 > b.length) throw new RangeError('readU64 past the end of its bytes');
  return (BigInt(word32(b, offset)) << 32n) | BigInt(word32(b, offset + 4));
}

/** 4-byte big-endian (modulo 2^32). */
export function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  writeWord32(b, 0, n);
  return b;
}

export function readU32(b: Uint8Array, offset = 0): number {
  if (offset < 0 || offset + 4 > b.length) throw new RangeError('readU32 past the end of its bytes');
  return word32(b, offset);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  // Indexed loops: a for-of is the iterator protocol in bytecode (with an iterator-closing
  // try/finally), which a fresh node interprets and then compiles (a block's keys are made here).
  let len = 0;
  for (let i = 0; i < parts.length; i++) len += parts[i].length;
  const out = new Uint8Array(len);
  let o = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
