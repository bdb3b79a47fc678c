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
});
