import { bigIntToBytes, bigIntToUnpaddedBytes, bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { minimalBytes, unpaddedBytes } from './unpaddedBytes.js';

describe('unpaddedBytes', () => {
  it('equals @ethereumjs/util bigIntToUnpaddedBytes and bigIntToBytes at every byte boundary and past 2^53', () => {
    const values = [
      0n,
      1n,
      0x7fn,
      0x80n,
      0xffn,
      0x100n,
      21_000n,
      30_000_000n,
      2n ** 53n - 1n,
      2n ** 53n,
      2n ** 256n - 1n,
    ];
    for (let bits = 1n; bits <= 80n; bits++) values.push(2n ** bits - 1n, 2n ** bits);
    for (const v of values) {
      expect(bytesToHex(unpaddedBytes(v))).toBe(bytesToHex(bigIntToUnpaddedBytes(v)));
      expect(bytesToHex(minimalBytes(v))).toBe(bytesToHex(bigIntToBytes(v)));
    }
  });
});
