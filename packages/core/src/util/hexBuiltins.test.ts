import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import './hexBuiltins.js';

type WithHex = Uint8Array & { toHex(): string };
const fromHex = (Uint8Array as unknown as { fromHex(s: string): Uint8Array }).fromHex;

describe('Uint8Array hex built-ins', () => {
  it('encodes lowercase hex of exactly the view (offset and length respected)', () => {
    const backing = Uint8Array.from([0xff, 0x00, 0xab, 0x10, 0x7f, 0xee]);
    const view = backing.subarray(1, 5) as WithHex;
    expect(view.toHex()).toBe('00ab107f');
    expect((new Uint8Array(0) as WithHex).toHex()).toBe('');
  });

  it('encodes fresh arrays and offset views of every length up to 80 as Buffer does', () => {
    // Arrays of up to 64 bytes live inside their object until `.buffer` is read: both kinds.
    for (let n = 0; n <= 80; n++) {
      const fresh = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff) as WithHex;
      const expected = Buffer.from(Array.from(fresh)).toString('hex');
      expect(fresh.toHex()).toBe(expected);
      const backing = new Uint8Array(n + 7);
      backing.set(fresh, 3);
      expect((backing.subarray(3, 3 + n) as WithHex).toHex()).toBe(expected);
    }
  });

  it('decodes upper and lower case into a plain Uint8Array of its own', () => {
    const b = fromHex('00aBcDeF');
    expect(b).toEqual(Uint8Array.from([0x00, 0xab, 0xcd, 0xef]));
    expect(Object.getPrototypeOf(b)).toBe(Uint8Array.prototype);
    expect(b.byteOffset).toBe(0);
    expect(b.buffer.byteLength).toBe(4);
  });

  it('refuses odd lengths and non-hex characters with a SyntaxError, as the specification says', () => {
    expect(() => fromHex('abc')).toThrow(SyntaxError);
    expect(() => fromHex('zz')).toThrow(SyntaxError);
    expect(() => fromHex('0x00')).toThrow(SyntaxError);
    expect(() => fromHex(' 00')).toThrow(SyntaxError);
    expect(() => fromHex(12 as unknown as string)).toThrow(TypeError);
  });

  it('round-trips every byte value, and @noble/hashes agrees with it', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const hex = (all as WithHex).toHex();
    expect(hex).toBe(Array.from(all, (b) => b.toString(16).padStart(2, '0')).join(''));
    expect(fromHex(hex)).toEqual(all);
    expect(bytesToHex(all)).toBe(hex);
    expect(hexToBytes(hex)).toEqual(all);
  });
});
