import { describe, expect, it } from 'vitest';
import {
  compareBytes,
  decodeText,
  encodeText,
  keyString,
  prefixEnd,
  readU16,
  readU32,
  readU64,
  readU256,
  u16,
  u64,
  u256,
} from './codec.js';

describe('index key codec', () => {
  it('writes u64 big-endian for numbers and bigints, also beyond 2^53', () => {
    for (const n of [0n, 1n, 255n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n, 2n ** 64n - 1n]) {
      const view = new DataView(new ArrayBuffer(8));
      view.setBigUint64(0, n);
      expect(u64(n)).toEqual(new Uint8Array(view.buffer));
      expect(readU64(u64(n))).toBe(n);
    }
    expect(u64(70_000)).toEqual(u64(70_000n));
  });

  it('round-trips u256 and clamps what does not fit', () => {
    for (const n of [0n, 1n, 10n ** 18n, 2n ** 255n, 2n ** 256n - 1n]) expect(readU256(u256(n))).toBe(n);
    expect(readU256(u256(-1n))).toBe(0n);
    expect(readU256(u256(2n ** 300n))).toBe(2n ** 256n - 1n);
    expect(readU16(u16(0xbeef))).toBe(0xbeef);
  });

  it('reads words at an offset of a view into a larger buffer, as a DataView does', () => {
    const backing = Uint8Array.from({ length: 96 }, (_, i) => (i * 37 + 11) & 0xff);
    const b = backing.subarray(5, 90);
    const dv = new DataView(backing.buffer, 5, 85);
    for (const at of [0, 3, 17, 50]) {
      expect(readU32(b, at)).toBe(dv.getUint32(at));
      expect(readU64(b, at)).toBe(dv.getBigUint64(at));
      let v = 0n;
      for (let i = 0; i < 32; i++) v = (v << 8n) | BigInt(dv.getUint8(at + i));
      expect(readU256(b, at)).toBe(v);
    }
    expect(() => readU256(b, 60)).toThrow(RangeError);
    expect(() => readU64(b, 80)).toThrow(RangeError);
    expect(() => readU32(b, 82)).toThrow(RangeError);
  });

  it('makes latin1 keys of short and long byte strings', () => {
    for (const n of [0, 1, 20, 32, 64, 65, 300]) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 101 + 7) & 0xff);
      expect(keyString(b)).toBe(Buffer.from(b).toString('latin1'));
    }
    // A view into a larger array: only its own bytes, from its offset.
    const whole = Uint8Array.from({ length: 100 }, (_, i) => 255 - i);
    expect(keyString(whole.subarray(10, 30))).toBe(Buffer.from(whole.subarray(10, 30)).toString('latin1'));
    expect(keyString(whole.subarray(10, 30)).charCodeAt(0)).toBe(245);
  });

  it('keeps numeric order as byte order', () => {
    const values = [0n, 1n, 255n, 256n, 65_535n, 2n ** 40n, 2n ** 63n];
    for (let i = 1; i < values.length; i++) {
      expect(compareBytes(u64(values[i - 1]), u64(values[i]))).toBeLessThan(0);
      expect(compareBytes(u256(values[i - 1]), u256(values[i]))).toBeLessThan(0);
    }
  });

  it('bounds a prefix from above', () => {
    expect(prefixEnd(Uint8Array.of(1, 2))).toEqual(Uint8Array.of(1, 3));
    expect(prefixEnd(Uint8Array.of(1, 0xff))).toEqual(Uint8Array.of(2));
    expect(compareBytes(prefixEnd(Uint8Array.of(0xff)), Uint8Array.of(0xff, 0xff, 0xff))).toBeGreaterThan(0);
  });

  it('encodes texts and null', () => {
    const both = new Uint8Array([...encodeText('Ash ☀'), ...encodeText(null)]);
    const first = decodeText(both, 0);
    expect(first.value).toBe('Ash ☀');
    expect(decodeText(both, first.next).value).toBeNull();
  });
});
