import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { hexBytes } from './hexBytes.js';

describe('hexBytes', () => {
  it('decodes as @ethereumjs/util hexToBytes does', () => {
    const inputs = [
      '0x',
      '0x00',
      '0xff',
      '0xAbCdEf',
      `0x${'5a'.repeat(20)}`,
      `0x${'0123456789abcdefABCDEF'.repeat(3)}`,
    ];
    for (const h of inputs) expect(bytesToHex(hexBytes(h))).toBe(bytesToHex(hexToBytes(h as `0x${string}`)));
  });

  it('throws what hexToBytes throws on what is not even 0x-hex', () => {
    for (const h of ['0x0', '0xzz', 'abcd', '0x12g4', '']) {
      let expected: unknown;
      try {
        hexToBytes(h as `0x${string}`);
      } catch (e) {
        expected = e;
      }
      if (expected === undefined) expect(bytesToHex(hexBytes(h))).toBe(bytesToHex(hexToBytes(h as `0x${string}`)));
      else expect(() => hexBytes(h)).toThrow((expected as Error).message);
    }
  });
});
