import { describe, expect, it } from 'vitest';
import { Lru } from './Lru.js';

describe('Lru', () => {
  it('forgets the least recently used entry past its capacity', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });

  it('keeps exact recency order when the newest entry is asked for again, deleted or replaced', () => {
    const lru = new Lru<string, number>(3);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect(lru.get('c')).toBe(3); // already the newest: no re-order
    expect(lru.get('a')).toBe(1); // a is now the newest: b is the oldest
    expect(lru.get('a')).toBe(1);
    lru.set('d', 4); // evicts b
    expect(lru.get('b')).toBeUndefined();
    lru.delete('d'); // the newest goes; asking for c must move it after a
    expect(lru.get('c')).toBe(3);
    lru.set('e', 5);
    lru.set('f', 6); // evicts a (order was a, c, e)
    expect(lru.get('a')).toBeUndefined();
    expect([lru.get('c'), lru.get('e'), lru.get('f')]).toEqual([3, 5, 6]);
  });

  it('keeps the total weight under its bound, and at least the newest entry', () => {
    const lru = new Lru<string, Uint8Array>(100, { max: 10, weigh: (v) => v.length });
    lru.set('a', new Uint8Array(4));
    lru.set('b', new Uint8Array(4));
    expect(lru.weightTotal).toBe(8);
    lru.set('c', new Uint8Array(4));
    expect(lru.get('a')).toBeUndefined();
    expect(lru.weightTotal).toBe(8);
    lru.set('huge', new Uint8Array(50));
    expect(lru.size).toBe(1);
    expect(lru.get('huge')?.length).toBe(50);
    expect(lru.weightTotal).toBe(50);
  });

  it('re-weighs a replaced entry and forgets weights on delete and clear', () => {
    const lru = new Lru<string, Uint8Array>(100, { max: 100, weigh: (v) => v.length });
    lru.set('a', new Uint8Array(10));
    lru.set('a', new Uint8Array(3));
    expect(lru.weightTotal).toBe(3);
    lru.delete('a');
    lru.delete('a');
    expect(lru.weightTotal).toBe(0);
    lru.set('b', new Uint8Array(7));
    lru.clear();
    expect(lru.weightTotal).toBe(0);
    expect(lru.size).toBe(0);
  });
});
