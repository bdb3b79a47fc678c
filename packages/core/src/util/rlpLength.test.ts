import { encode as stockEncode } from '@ethereumjs/rlp';
import { describe, expect, it } from 'vitest';
import { rlpLengthOfLength, writeRlpHeader } from './rlpLength.js';

describe('RLP length header', () => {
  it('equals the stock encoder’s header for strings and lists at every length boundary', () => {
    for (const n of [0, 1, 55, 56, 255, 256, 65_535, 65_536, 2 ** 24 - 1, 2 ** 24]) {
      const bytes = new Uint8Array(n).fill(0x80);
      const stockString = stockEncode(bytes);
      const stringHeader = stockString.subarray(0, stockString.length - n);
      const out = new Uint8Array(16);
      expect(out.subarray(0, writeRlpHeader(out, 0, n, 0x80, 0xb7))).toEqual(stringHeader);
      // A list whose payload is n one-byte items below 0x80 (the stock encoder is slow past 64 Ki items).
      if (n > 65_536) continue;
      const stockList = stockEncode(Array.from({ length: n }, () => Uint8Array.of(1)));
      const listHeader = stockList.subarray(0, stockList.length - n);
      expect(out.subarray(0, writeRlpHeader(out, 0, n, 0xc0, 0xf7))).toEqual(listHeader);
    }
  });

  it('counts the bytes of lengths past 32 bits', () => {
    expect(rlpLengthOfLength(2 ** 32 - 1)).toBe(4);
    expect(rlpLengthOfLength(2 ** 32)).toBe(5);
    expect(rlpLengthOfLength(2 ** 40)).toBe(6);
  });
});
