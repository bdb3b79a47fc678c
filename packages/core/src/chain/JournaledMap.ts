/** Reads, hits, writes and deletions since the last reset, as @ethereumjs's caches count them. */
export interface CacheStats {
  size: number;
  reads: number;
  hits: number;
  writes: number;
  deletions: number;
}

export const noStats = (): CacheStats => ({ size: 0, reads: 0, hits: 0, writes: 0, deletions: 0 });

/**
 * A Map with @ethereumjs's cache journal: per checkpoint level, the value each key had before
 * its first change at that level (undefined: the key was absent). `commit` hands a level's
 * earlier values down to the level below (where that level has none), `revert` puts them back,
 * and `takeChanged` returns and forgets the keys changed at the current level, which a flush
 * writes to the trie. The same structure as @ethereumjs's AccountCache and CodeCache, over a
 * plain Map instead of a red-black tree.
 */
export class JournaledMap<V> {
  readonly values = new Map<string, V>();
  private levels: Map<string, V | undefined>[] = [new Map()];
  /**
   * An empty level map no longer in `levels`, for the next checkpoint: a transaction opens and
   * closes ~5 levels per cache, most of them (all of the code cache's) with nothing recorded,
   * and a fresh Map per checkpoint was garbage for every one.
   */
  private spare: Map<string, V | undefined> | undefined;

  get(key: string): V | undefined {
    return this.values.get(key);
  }

  /** Sets `key`, remembering its earlier value for the current checkpoint level. */
  set(key: string, value: V): void {
    const level = this.levels[this.levels.length - 1];
    if (!level.has(key)) level.set(key, this.values.get(key));
    this.values.set(key, value);
  }

  /**
   * Sets `key` without a journal entry: a revert keeps it. Only for a key that is absent and a
   * value that holds at every checkpoint level below (what the trie held before them all).
   */
  setUnjournaled(key: string, value: V): void {
    this.values.set(key, value);
  }

  /** True when `key` changed inside an open checkpoint (at any level above the base one). */
  changedInCheckpoint(key: string): boolean {
    for (let i = 1; i < this.levels.length; i++) if (this.levels[i].has(key)) return true;
    return false;
  }

  /**
   * The keys changed at the current level since the last call; the level's journal starts afresh.
   * Inside an open checkpoint that drops the earlier values a revert would restore (as
   * @ethereumjs's caches do): a flush there followed by a revert keeps the flushed values in
   * the cache while the trie goes back. The head VM never does that (see Executor.headVm).
   */
  takeChanged(): string[] {
    const top = this.levels.length - 1;
    const level = this.levels[top];
    if (level.size === 0) return [];
    this.levels[top] = new Map();
    return [...level.keys()];
  }

  checkpoint(): void {
    const level = this.spare ?? new Map<string, V | undefined>();
    this.spare = undefined;
    this.levels.push(level);
  }

  commit(): void {
    if (this.levels.length < 2) throw new Error('JournaledMap.commit without a checkpoint');
    const higher = this.levels.pop() as Map<string, V | undefined>;
    const top = this.levels.length - 1;
    const lower = this.levels[top];
    if (lower.size === 0) {
      // Every entry of `higher` would be copied, in its order: `higher` becomes the level.
      this.levels[top] = higher;
      this.spare = lower;
      return;
    }
    // Keys then get, not `for (const [key, earlier] of higher)`: no entry array and no
    // destructuring (the iterator protocol per entry in bytecode).
    for (const key of higher.keys()) if (!lower.has(key)) lower.set(key, higher.get(key));
    if (higher.size === 0) this.spare = higher;
  }

  revert(): void {
    if (this.levels.length < 2) throw new Error('JournaledMap.revert without a checkpoint');
    const higher = this.levels.pop() as Map<string, V | undefined>;
    for (const key of higher.keys()) {
      const earlier = higher.get(key);
      if (earlier === undefined) this.values.delete(key);
      else this.values.set(key, earlier);
    }
    if (higher.size === 0) this.spare = higher;
  }

  /**
   * Forgets every value and every pending change (the checkpoint levels stay). @ethereumjs's
   * clear keeps the journal, whose entries then name values no longer there: a flush skips
   * them (accounts, code) or throws (storage), and a revert brings back values from before the
   * clear. Dropping them is what every caller of clear means: read the trie from here on.
   */
  clear(): void {
    this.values.clear();
    this.levels = this.levels.map(() => new Map());
  }

  /** The journal levels (for tests and for readers of @ethereumjs's `_diffCache`). */
  get journal(): readonly ReadonlyMap<string, V | undefined>[] {
    return this.levels;
  }
}

/**
 * What the head state's object caches (accounts, code) share: a JournaledMap of their entries,
 * @ethereumjs's checkpoint/commit/revert/clear over it, and its read/hit/write counters.
 */
export abstract class JournaledCache<E> {
  protected readonly map = new JournaledMap<E>();
  protected counts = noStats();

  checkpoint(): void {
    this.map.checkpoint();
  }

  commit(): void {
    this.map.commit();
  }

  revert(): void {
    this.map.revert();
  }

  clear(): void {
    this.map.clear();
  }

  size(): number {
    return this.map.values.size;
  }

  stats(reset = true): CacheStats {
    const out = { ...this.counts, size: this.size() };
    if (reset) this.counts = noStats();
    return out;
  }
}
