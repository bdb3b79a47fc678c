import { describe, expect, it } from 'vitest';
import { GenerationCache } from './GenerationCache.js';
import { type Node, leaf } from './nodes.js';

const node = (i: number): Node => leaf(Uint8Array.of(i & 15), Uint8Array.of(i & 255));

describe('GenerationCache', () => {
  it('stays within its capacity and keeps the newest half', () => {
    const c = new GenerationCache<number, Node>(100);
    for (let i = 0; i < 1_000; i++) {
      c.set(i, node(i));
      expect(c.size).toBeLessThanOrEqual(100);
    }
    for (let i = 950; i < 1_000; i++) expect(c.get(i)).toBeDefined();
    expect(c.get(0)).toBeUndefined();
  });

  it('keeps what is read: a node hit in the old generation survives the next turnover', () => {
    const c = new GenerationCache<number, Node>(10);
    const hot = node(1);
    c.set(1, hot);
    for (let i = 100; i < 200; i++) {
      c.set(i, node(i));
      expect(c.get(1)).toBe(hot);
    }
  });

  it('holds nothing with a capacity under 2', () => {
    for (const cap of [0, 1]) {
      const c = new GenerationCache<number, Node>(cap);
      c.set(1, node(1));
      expect(c.get(1)).toBeUndefined();
      expect(c.size).toBe(0);
    }
  });
});
