import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { byteKey, bytesOfKey, hexKey } from './stateCacheKeys.js';

describe('state cache keys', () => {
  it('bytesOfKey gives back the bytes of a byteKey, for every byte value and for views', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const samples = [
      new Uint8Array(0),
      all,
      all.subarray(200, 232),
      new Uint8Array(20).fill(0xff),
      Buffer.from('00ff7f80', 'hex'),
    ];
    for (const bytes of samples) {
      const back = bytesOfKey(byteKey(bytes));
      expect(back).toBeInstanceOf(Uint8Array);
      expect(Buffer.isBuffer(back)).toBe(false);
      expect(bytesToHex(back)).toBe(bytesToHex(bytes));
      expect(hexKey(bytes)).toBe(bytesToHex(bytes).slice(2));
    }
  });
});
