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

/** 8-byte big-endian key part: keeps numeric order in sorted key-value stores. */
export function u64(n: bigint | number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
}

export function readU64(b: Uint8Array, offset = 0): bigint {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getBigUint64(offset);
}

export function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}

export function readU32(b: Uint8Array, offset = 0): number {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(offset);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let o = 0;
  for (const p of parts) {
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
