import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedTable } from './SortedTable.js';

/** The obvious implementation the table must agree with. */
class Naive {
  readonly map = new Map<string, number>();
  range(from: string, fromExclusive: boolean, to: string, reverse: boolean, limit: number): [string, number][] {
    const keys = [...this.map.keys()]
      .filter((k) => (fromExclusive ? k > from : k >= from) && k < to)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (reverse) keys.reverse();
    return keys.slice(0, limit).map((k) => [k, this.map.get(k) as number]);
  }
}

const key = fc.string({ unit: fc.constantFrom('\u0000', 'a', 'b', 'c', '\u00ff'), minLength: 0, maxLength: 4 });
const op = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant('del' as const), key }),
);

describe('SortedTable', () => {
  it('agrees with a naive sorted map on random writes and range reads', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 400 }),
        fc.array(fc.tuple(key, fc.boolean(), key, fc.boolean(), fc.integer({ min: 0, max: 30 })), { maxLength: 20 }),
        (ops, queries) => {
          const t = new SortedTable<number>();
          const n = new Naive();
          for (const o of ops) {
            if (o.kind === 'set') {
              t.set(o.key, o.value);
              n.map.set(o.key, o.value);
            } else {
              t.delete(o.key);
              n.map.delete(o.key);
            }
          }
          expect(t.size).toBe(n.map.size);
          for (const [from, excl, to, rev, limit] of queries) {
            expect(t.range(from, excl, to, rev, limit)).toEqual(n.range(from, excl, to, rev, limit));
          }
          for (const k of n.map.keys()) expect(t.get(k)).toBe(n.map.get(k));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps order across chunk splits and merges (thousands of keys)', () => {
    const t = new SortedTable<number>();
    const keys = Array.from({ length: 3000 }, (_, i) => String((i * 7919) % 3001).padStart(5, '0'));
    for (const [i, k] of keys.entries()) t.set(k, i);
    const all = t.range('', false, '\uffff', false, 10_000).map(([k]) => k);
    expect(all).toEqual([...keys].sort());
    for (const k of keys.slice(0, 2900)) t.delete(k);
    expect(t.range('', false, '\uffff', true, 10_000).map(([k]) => k)).toEqual(keys.slice(2900).sort().reverse());
    t.clear();
    expect(t.range('', false, '\uffff', false, 10)).toEqual([]);
  });

  it('deletes from the top across chunks as a revert does, and grows again after', () => {
    const t = new SortedTable<number>();
    const n = new Naive();
    const k = (i: number) => String(i).padStart(6, '0');
    const put = (i: number) => {
      t.set(k(i), i);
      n.map.set(k(i), i);
    };
    const del = (i: number) => {
      t.delete(k(i));
      n.map.delete(k(i));
    };
    for (let i = 0; i < 1500; i++) put(i);
    // Keys above the top and a key deleted twice change nothing.
    del(2000);
    for (let top = 1499; top >= 700; top -= 100) {
      for (let i = top; i > top - 100; i--) del(i);
      del(top);
      expect(t.size).toBe(n.map.size);
      expect(t.range('', false, '\uffff', false, 10_000)).toEqual(n.range('', false, '\uffff', false, 10_000));
      for (let i = top - 99; i < top - 49; i++) put(i);
      for (let i = top - 50; i > top - 100; i--) del(i);
    }
    for (let i = 699; i >= 0; i--) del(i);
    expect(t.size).toBe(0);
    expect(t.range('', false, '\uffff', false, 10)).toEqual([]);
    for (let i = 0; i < 600; i++) put(i);
    expect(t.range(k(100), true, k(105), true, 10)).toEqual(n.range(k(100), true, k(105), true, 10));
    expect(t.range('', false, '\uffff', false, 10_000)).toEqual(n.range('', false, '\uffff', false, 10_000));
    for (const key of n.map.keys()) expect(t.get(key)).toBe(n.map.get(key));
  });
});
