import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeTable } from './NodeTable.js';

const key = (n: number, prefix = 0): Uint8Array => {
  const k = new Uint8Array(32);
  k[0] = prefix;
  new DataView(k.buffer).setUint32(28, n);
  return k;
};

describe('NodeTable', () => {
  it('answers like a Map for random keys and values, across growth', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 600 })), {
          maxLength: 400,
        }),
        (entries) => {
          const t = new NodeTable(16);
          const m = new Map<string, Uint8Array>();
          for (const [k, v] of entries) {
            t.set(k, v);
            const hex = Buffer.from(k).toString('hex');
            if (!m.has(hex)) m.set(hex, v);
          }
          expect(t.size).toBe(m.size);
          for (const [hex, v] of m) expect(t.get(Uint8Array.from(Buffer.from(hex, 'hex')))).toEqual(v);
        },
      ),
    );
  });

  it('finds keys across growth and misses absent ones', () => {
    const t = new NodeTable(16);
    for (let i = 0; i < 5_000; i++) t.set(key(i), Uint8Array.of(i & 255, i >> 8));
    for (let i = 0; i < 5_000; i++) expect(t.get(key(i))).toEqual(Uint8Array.of(i & 255, i >> 8));
    expect(t.get(key(5_000))).toBeUndefined();
    expect(t.has(key(7, 1))).toBe(false);
    expect(t.size).toBe(5_000);
  });

  it('tells apart keys that land on one slot (a probe chain)', () => {
    const t = new NodeTable(16);
    // Same words 0-1 and 7 (the tag, and so the home slot); they differ in the middle.
    const colliding = (i: number) => {
      const k = new Uint8Array(32);
      k[10] = i & 255;
      k[11] = i >> 8;
      return k;
    };
    for (let i = 0; i < 300; i++) t.set(colliding(i), Uint8Array.of(i & 255));
    for (let i = 0; i < 300; i++) expect(t.get(colliding(i))).toEqual(Uint8Array.of(i & 255));
    expect(t.get(colliding(300))).toBeUndefined();
  });

  it('keeps the first value of a key and copies what it stores', () => {
    const t = new NodeTable();
    const v = Uint8Array.of(1, 2, 3);
    t.set(key(1), v);
    v[0] = 9;
    t.set(key(1), Uint8Array.of(4));
    expect(t.get(key(1))).toEqual(Uint8Array.of(1, 2, 3));
  });

  it('stores values larger than a slab and empty values', () => {
    const t = new NodeTable();
    const big = randomBytes(3 * 1024 * 1024);
    t.set(key(1), big);
    t.set(key(2), new Uint8Array(0));
    t.set(key(3), Uint8Array.of(7));
    expect(Buffer.from(t.get(key(1)) as Uint8Array).equals(big)).toBe(true);
    expect(t.get(key(2))).toEqual(new Uint8Array(0));
    expect(t.get(key(3))).toEqual(Uint8Array.of(7));
  });

  it('keeps filling the shared slab after a value that got a slab of its own', () => {
    const t = new NodeTable();
    const big = randomBytes(512 * 1024);
    t.set(key(1), Uint8Array.of(1, 1));
    t.set(key(2), big);
    t.set(key(3), Uint8Array.of(3, 3, 3));
    expect(t.get(key(1))).toEqual(Uint8Array.of(1, 1));
    expect(Buffer.from(t.get(key(2)) as Uint8Array).equals(big)).toBe(true);
    expect(t.get(key(3))).toEqual(Uint8Array.of(3, 3, 3));
  });

  it('copies a key and value out of larger buffers (setFrom)', () => {
    const t = new NodeTable();
    const keys = new Uint8Array(96);
    keys.set(key(5), 32);
    const bytes = Uint8Array.of(0, 0, 7, 8, 9, 0);
    t.setFrom(keys, 32, bytes, 2, 3);
    bytes.fill(0);
    expect(t.get(key(5))).toEqual(Uint8Array.of(7, 8, 9));
    expect(t.size).toBe(1);
  });

  it('refuses keys that are not 32 bytes on write and misses them on read', () => {
    const t = new NodeTable();
    expect(() => t.set(new Uint8Array(33), Uint8Array.of(1))).toThrow(/32 bytes/);
    expect(t.get(new Uint8Array(33))).toBeUndefined();
  });
});
