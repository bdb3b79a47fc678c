import { describe, expect, it } from 'vitest';
import { JournaledMap } from './JournaledMap.js';

/** A small deterministic PRNG (mulberry32): the same operations on every run. */
function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

describe('JournaledMap', () => {
  // Many empty levels (the map reuses their Map objects) between levels that record changes.
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`reverts and commits as snapshots of the values would (seed ${seed})`, () => {
      const rnd = prng(seed);
      const map = new JournaledMap<number>();
      // Per open checkpoint: the values when it was opened, and the keys changed at its level.
      const snapshots: { values: Map<string, number>; changed: Set<string> }[] = [];
      const model = new Map<string, number>();
      for (let step = 0; step < 3000; step++) {
        const op = rnd(10);
        if (op < 3) {
          const key = `k${rnd(6)}`;
          const value = rnd(100);
          map.set(key, value);
          model.set(key, value);
          snapshots[snapshots.length - 1]?.changed.add(key);
        } else if (op < 6) {
          map.checkpoint();
          snapshots.push({ values: new Map(model), changed: new Set() });
        } else if (op < 8 && snapshots.length > 0) {
          map.commit();
          const committed = snapshots.pop() as { changed: Set<string> };
          for (const key of committed.changed) snapshots[snapshots.length - 1]?.changed.add(key);
        } else if (snapshots.length > 0) {
          map.revert();
          const s = snapshots.pop() as { values: Map<string, number> };
          model.clear();
          for (const [k, v] of s.values) model.set(k, v);
        }
        expect(new Map(map.values)).toEqual(model);
        for (let k = 0; k < 6; k++) {
          const key = `k${k}`;
          expect(map.changedInCheckpoint(key)).toBe(snapshots.some((s) => s.changed.has(key)));
        }
        expect(map.journal.length).toBe(snapshots.length + 1);
      }
    });
  }
});
