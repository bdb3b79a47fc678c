/** Bytes-style bound of an Lru: entries are weighed, and the least recently used go past `max`. */
export interface LruWeight<V> {
  max: number;
  weigh: (value: V) => number;
}

/**
 * A bounded map that forgets the least recently used entry: keeps caches from growing with the
 * chain. Bounded by entry count and, when given a weigher, by total weight (estimated bytes), so
 * a cache of large values (blocks of thousands of transactions) stays bounded too.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private weights?: Map<K, number>;
  private total = 0;
  /** The most recently used key: a hit on it leaves the order as it is. */
  private newest: K | undefined;

  constructor(
    private readonly capacity: number,
    private readonly weight?: LruWeight<V>,
  ) {
    if (weight) this.weights = new Map();
  }

  get(key: K): V | undefined {
    const v = this.map.get(key);
    // Re-inserting moves the key last; it also leaves a deleted slot that every later eviction's
    // iterator skips until the Map rehashes. Caches mostly ask for what they just had (the head).
    if (v !== undefined && key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, v);
      this.newest = key;
    }
    return v;
  }

  set(key: K, value: V): void {
    if (this.map.has(key)) this.delete(key);
    else if (this.map.size >= this.capacity) this.evictOldest();
    this.map.set(key, value);
    this.newest = key;
    if (this.weight && this.weights) {
      const w = this.weight.weigh(value);
      this.weights.set(key, w);
      this.total += w;
      // Keep at least the newest entry, however heavy.
      while (this.total > this.weight.max && this.map.size > 1) this.evictOldest();
    }
  }

  delete(key: K): void {
    if (!this.map.delete(key)) return;
    if (key === this.newest) this.newest = undefined;
    if (this.weights) {
      this.total -= this.weights.get(key) ?? 0;
      this.weights.delete(key);
    }
  }

  clear(): void {
    this.map.clear();
    this.newest = undefined;
    this.weights?.clear();
    this.total = 0;
  }

  get size(): number {
    return this.map.size;
  }

  /** Total weight of the entries (0 without a weigher). */
  get weightTotal(): number {
    return this.total;
  }

  private evictOldest(): void {
    const oldest = this.map.keys().next();
    if (!oldest.done) this.delete(oldest.value);
  }
}
