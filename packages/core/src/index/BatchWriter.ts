import { Lru } from '../util/Lru.js';
import { keyString } from './codec.js';
import type { IndexOp, IndexStore, IndexTable } from './IndexStore.js';

/** Tables the indexer reads back while writing (counters, balances, token records). */
const RMW_TABLES = [
  'idxMeta',
  'idxTx',
  'idxAddress',
  'idxToken',
  'idxTokenBalance',
  'idxHolderIds',
  'idxDaily',
  'idxContract',
] as const;
type RmwTable = (typeof RMW_TABLES)[number];
const isRmw = (t: IndexTable): t is RmwTable => (RMW_TABLES as readonly string[]).includes(t);

type Slot = Uint8Array | null;

/**
 * The index's writes for the chain's block batches, and its reads of what it wrote.
 *
 * Read-modify-write values (counters, balances) are read through two layers: `overlay` holds
 * writes of the batch being built — a revert removes several blocks in one batch, and each
 * must see the counters the previous one left — and `cache` holds committed values, so the hot
 * addresses and tokens of a busy chain cost no storage read. The overlay moves into the cache
 * only when the chain says the batch was written (`committed`); a batch that failed is dropped.
 */
export class BatchWriter {
  ops: IndexOp[] = [];
  private overlay = new Map<RmwTable, Map<string, Slot>>();
  private readonly cache = new Map<RmwTable, Lru<string, Slot>>();

  constructor(
    readonly store: IndexStore,
    /** 0 when reading the store is as cheap as a cache (the memory store). */
    private readonly cacheSize = 50_000,
  ) {
    for (const t of RMW_TABLES) {
      this.overlay.set(t, new Map());
      this.cache.set(t, new Lru(Math.max(cacheSize, 1)));
    }
  }

  /** Starts a batch: forgets uncommitted writes of a batch that never reached storage. */
  begin(): void {
    this.ops = [];
    for (const m of this.overlay.values()) m.clear();
  }

  /** Hands over the writes made since the last `take` (reads keep seeing them through the overlay). */
  take(): IndexOp[] {
    const ops = this.ops;
    this.ops = [];
    return ops;
  }

  /** The batch reached storage: its values become the committed ones. */
  committed(): void {
    if (this.cacheSize === 0) {
      for (const m of this.overlay.values()) m.clear();
      return;
    }
    for (const [t, m] of this.overlay) {
      const c = this.cache.get(t) as Lru<string, Slot>;
      for (const [k, v] of m) c.set(k, v);
      m.clear();
    }
  }

  /** Forgets every cached value (after a rebuild or when storage changed under us). */
  reset(): void {
    for (const c of this.cache.values()) c.clear();
    for (const m of this.overlay.values()) m.clear();
    this.ops = [];
  }

  put(table: IndexTable, key: Uint8Array, value: Uint8Array): void {
    this.ops.push({ table, key, value });
    if (isRmw(table)) this.overlay.get(table)?.set(keyString(key), value);
  }

  del(table: IndexTable, key: Uint8Array): void {
    this.ops.push({ table, key, value: null });
    if (isRmw(table)) this.overlay.get(table)?.set(keyString(key), null);
  }

  /** The current value: this batch's write, else the committed one (cached or stored). */
  async read(table: RmwTable, key: Uint8Array): Promise<Uint8Array | undefined> {
    const k = keyString(key);
    const o = this.overlay.get(table) as Map<string, Slot>;
    if (o.has(k)) return o.get(k) ?? undefined;
    if (this.cacheSize === 0) return this.store.getNow ? this.store.getNow(table, k) : this.store.get(table, key);
    const c = this.cache.get(table) as Lru<string, Slot>;
    const hit = c.get(k);
    if (hit !== undefined) return hit ?? undefined;
    const v = await this.store.get(table, key);
    c.set(k, v ?? null);
    return v;
  }
}
