import { describe, expect, it } from 'vitest';
import { byteLengthOf, createSerializer, type EncodedNotification, textOf } from './serialize.js';

describe('createSerializer', () => {
  const note = (subscription: string, result: unknown) => ({
    jsonrpc: '2.0',
    method: 'eth_subscription',
    params: { subscription, result },
  });

  it('writes notifications exactly as JSON.stringify would', () => {
    const s = createSerializer();
    for (const result of [{ number: '0x1', logs: [] }, '0xabc', null, true, [1, 2], 'ünï ✓']) {
      const m = note('0x01', result);
      const e = s(m);
      expect(textOf(e)).toBe(JSON.stringify(m));
      expect(byteLengthOf(e)).toBe(Buffer.byteLength(JSON.stringify(m)));
    }
  });

  it('encodes a shared result object once for all subscribers', () => {
    const s = createSerializer();
    let reads = 0;
    const result = {
      toJSON() {
        reads++;
        return { number: '0x2' };
      },
    };
    const a = s(note('0xa', result)) as EncodedNotification;
    const b = s(note('0xb', result)) as EncodedNotification;
    expect(reads).toBe(1);
    expect(a.result).toBe(b.result);
    expect(JSON.parse(textOf(a)).params).toEqual({ subscription: '0xa', result: { number: '0x2' } });
    expect(JSON.parse(textOf(b)).params.subscription).toBe('0xb');
  });

  it('leaves answers and odd messages to JSON.stringify', () => {
    const s = createSerializer();
    const answer = { jsonrpc: '2.0', id: 1, result: { a: 1 } };
    expect(s(answer)).toBe(JSON.stringify(answer));
    expect(s(undefined)).toBe('null');
    expect(JSON.parse(textOf(s(note('0x1', undefined)))).params.result).toBeNull();
  });
});
