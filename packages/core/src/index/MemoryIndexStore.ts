import type { StoreOp } from '../storage/ChainStore.js';
import { keyString } from './codec.js';
import {
  type Entry,
  INDEX_TABLES,
  type IndexOp,
  type IndexStore,
  type IndexTable,
  type RangeQuery,
  bounds,
} from './IndexStore.js';
import { SortedTable } from './SortedTable.js';

const bytesOf = (s: string): Uint8Array => {
  const b = Buffer.from(s, 'latin1');
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};

/**
 * The index of a chain kept in memory: sorted tables of its own instead of the chain's
 * memory-level database, whose persistent tree allocates a path on every write — the index
 * writes some thirty keys per block, the chain a handful. A block's writes are held (`stage`)
 * and applied when the chain has written the block (`commitStaged`, from its `block` and
 * `revert` events), so the index moves with the head and never ahead of it.
 */
export class MemoryIndexStore implements IndexStore {
  private readonly tables = new Map<IndexTable, SortedTable<Uint8Array>>();
  private staged: IndexOp[] = [];

  constructor() {
    for (const t of INDEX_TABLES) this.tables.set(t, new SortedTable());
  }

  private table(t: IndexTable): SortedTable<Uint8Array> {
    return this.tables.get(t) as SortedTable<Uint8Array>;
  }

  async get(table: IndexTable, key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.table(table).get(keyString(key));
  }

  async getMany(table: IndexTable, keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    const t = this.table(table);
    return keys.map((k) => t.get(keyString(k)));
  }

  async range(table: IndexTable, q: RangeQuery): Promise<Entry[]> {
    const b = bounds(q);
    return this.table(table)
      .range(keyString(b.lower), b.lowerExclusive, keyString(b.upper), q.reverse, q.limit)
      .map(([k, value]) => ({ key: bytesOf(k), value }));
  }

  stage(ops: IndexOp[]): StoreOp[] {
    for (const op of ops) this.staged.push(op);
    return [];
  }

  commitStaged(): void {
    this.apply(this.staged);
    this.staged = [];
  }

  dropStaged(): void {
    this.staged = [];
  }

  async writeNow(ops: IndexOp[]): Promise<void> {
    this.apply(ops);
  }

  private apply(ops: IndexOp[]): void {
    for (const op of ops) {
      const t = this.table(op.table);
      const k = keyString(op.key);
      if (op.value === null) t.delete(k);
      else t.set(k, op.value);
    }
  }

  async clearAll(): Promise<void> {
    for (const t of this.tables.values()) t.clear();
    this.staged = [];
  }
}
