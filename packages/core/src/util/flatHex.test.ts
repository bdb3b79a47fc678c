import { randomBytes } from 'node:crypto';
import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { flatHex } from './flatHex.js';

describe('flatHex', () => {
  it('gives 0x + lowercase hex of every length, short, long and past the loop', () => {
    for (const n of [0, 1, 2, 5, 6, 7, 20, 32, 33, 256, 2047, 2048, 2049, 5000]) {
      const b = randomBytes(n);
      expect(flatHex(b)).toBe(bytesToHex(b));
    }
  });

  it('reads views at their offset and keeps earlier answers when the scratch buffer is reused', () => {
    const whole = Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x0f, 0xf0]);
    const first = flatHex(whole.subarray(1, 4));
    const second = flatHex(whole.subarray(4));
    expect(first).toBe('0xadbeef');
    expect(second).toBe('0x000ff0');
    expect(flatHex(Uint8Array.from({ length: 256 }, (_, i) => i))).toBe(
      `0x${Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0')).join('')}`,
    );
  });
});
