import { describe, expect, it } from 'vitest';
import { readU32, readU64, u32, u64 } from './hex.js';

/** What a DataView writes: the value modulo 2^64, big-endian. */
function viaDataView(n: bigint | number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, BigInt(n)));
  return b;
}

describe('fixed-width helpers', () => {
  it('u64 writes what a DataView writes, modulo 2^64, for numbers and bigints', () => {
    const values: (bigint | number)[] = [0, 1, 255, 256, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 60];
    const bigs = [0n, 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 64n + 5n, -1n, -(2n ** 63n)];
    for (const n of [...values, -1, -300, ...bigs]) expect(u64(n), String(n)).toEqual(viaDataView(n));
    expect(() => u64(1.5)).toThrow(RangeError);
    expect(() => u64(Number.NaN)).toThrow(RangeError);
  });

  it('readU64 and readU32 read big-endian at an offset, and refuse to read past the end', () => {
    const b = new Uint8Array(20);
    for (let i = 0; i < b.length; i++) b[i] = (i * 53 + 7) & 0xff;
    const dv = new DataView(b.buffer);
    for (let at = 0; at <= 12; at++) expect(readU64(b, at)).toBe(dv.getBigUint64(at));
    for (let at = 0; at <= 16; at++) expect(readU32(b, at)).toBe(dv.getUint32(at));
    const view = b.subarray(3, 15);
    expect(readU64(view, 2)).toBe(dv.getBigUint64(5));
    expect(() => readU64(b, 13)).toThrow(RangeError);
    expect(() => readU32(b, 17)).toThrow(RangeError);
    expect(() => readU32(b, -1)).toThrow(RangeError);
  });

  it('u32 writes modulo 2^32', () => {
    for (const n of [0, 1, 0xdeadbeef, 2 ** 32 - 1, 2 ** 32, -1]) {
      const b = new Uint8Array(4);
      new DataView(b.buffer).setUint32(0, n >>> 0);
      expect(u32(n), String(n)).toEqual(b);
    }
  });
});
