import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PendingNodes } from './PendingNodes.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function entries(p: PendingNodes): [string, string][] {
  const out: [string, string][] = [];
  p.forEach((keys, keyAt, bytes, at, length) => {
    out.push([hex(keys.subarray(keyAt, keyAt + 32)), hex(bytes.subarray(at, at + length))]);
  });
  return out;
}

describe('PendingNodes', () => {
  it('answers like a Map (last value wins, insertion order) across growth and clears', () => {
    const kv = fc.tuple(fc.integer({ min: 0, max: 300 }), fc.uint8Array({ maxLength: 700 }));
    fc.assert(
      fc.property(fc.array(fc.array(kv, { maxLength: 400 }), { minLength: 1, maxLength: 3 }), (blocks) => {
        const p = new PendingNodes();
        for (const block of blocks) {
          const m = new Map<string, string>();
          for (const [k, v] of block) {
            const key = new Uint8Array(32);
            // Keys differing only past the bytes the slot is taken from: long probe chains.
            key[k % 2 === 0 ? 0 : 20] = k & 255;
            key[21] = k >> 8;
            p.set(key, v);
            m.set(hex(key), hex(v));
          }
          expect(p.size).toBe(m.size);
          expect(entries(p)).toEqual([...m]);
          for (const [k, v] of m) expect(hex(p.get(Buffer.from(k, 'hex')) as Uint8Array)).toBe(v);
          p.clear();
          expect(p.size).toBe(0);
          expect(entries(p)).toEqual([]);
          for (const k of m.keys()) expect(p.get(Buffer.from(k, 'hex'))).toBeUndefined();
        }
      }),
      { numRuns: 100 },
    );
  });

  it('copies keys and values in, and hands out copies', () => {
    const p = new PendingNodes();
    const key = new Uint8Array(32).fill(5);
    const value = Uint8Array.of(1, 2, 3);
    p.set(key, value);
    key.fill(0);
    value[0] = 9;
    const got = p.get(new Uint8Array(32).fill(5)) as Uint8Array;
    expect(got).toEqual(Uint8Array.of(1, 2, 3));
    got[1] = 7;
    p.clear();
    p.set(new Uint8Array(32).fill(6), Uint8Array.of(4, 4, 4));
    // Memory reused after clear() does not show through a value handed out before.
    expect(got).toEqual(Uint8Array.of(1, 7, 3));
  });
});
