import type { AbstractSublevel } from 'abstract-level';
import type { ChainStore, StoreOp } from '../storage/ChainStore.js';
import { SUBLEVELS } from '../storage/keys.js';
import type { StoragePort } from '../storage/StoragePort.js';
import { concat, prefixEnd } from './codec.js';

// biome-ignore lint/suspicious/noExplicitAny: sublevel of a database of any backend
type Sub = AbstractSublevel<any, any, Uint8Array, Uint8Array>;
const VIEW = { keyEncoding: 'view', valueEncoding: 'view' } as const;

export const INDEX_TABLES = [
  'idxMeta',
  'idxTx',
  'idxTxKind',
  'idxTxMethod',
  'idxAddrTx',
  'idxTransfer',
  'idxAddrTransfer',
  'idxTokenTransfer',
  'idxAddrTokenTransfer',
  'idxToken',
  'idxTokenRank',
  'idxTokenName',
  'idxTokenBalance',
  'idxHolderRank',
  'idxHolderIds',
  'idxAddrLog',
  'idxContract',
  'idxInternal',
  'idxAddrInternal',
  'idxAddress',
  'idxBalanceRank',
  'idxTxCountRank',
  'idxCoinHistory',
  'idxValidated',
  'idxWithdrawal',
  'idxDaily',
] as const satisfies readonly (keyof typeof SUBLEVELS)[];
export type IndexTable = (typeof INDEX_TABLES)[number];

export interface Entry {
  key: Uint8Array;
  value: Uint8Array;
}

/** One write of the index: a put, or a delete when `value` is null. */
export interface IndexOp {
  table: IndexTable;
  key: Uint8Array;
  value: Uint8Array | null;
}

/** A range read: keys starting with `prefix`, strictly below (reverse) or above `after` when given. */
export interface RangeQuery {
  prefix: Uint8Array;
  /** Suffix (after the prefix) of the last key already seen. */
  after?: Uint8Array;
  reverse: boolean;
  limit: number;
}

/** Bounds of a range query: [lower, upper) with the lower bound exclusive when `after` is a forward cursor. */
export function bounds(q: RangeQuery): { lower: Uint8Array; lowerExclusive: boolean; upper: Uint8Array } {
  if (q.reverse)
    return { lower: q.prefix, lowerExclusive: false, upper: q.after ? concat(q.prefix, q.after) : prefixEnd(q.prefix) };
  return {
    lower: q.after ? concat(q.prefix, q.after) : q.prefix,
    lowerExclusive: q.after !== undefined,
    upper: prefixEnd(q.prefix),
  };
}

/**
 * Where the index lives. Writes are staged by block: `stage` turns a block's ops into storage ops
 * for the chain's batch (LevelDB), or holds them until `commitStaged` applies them when the
 * chain says the batch was written (memory). Either way a reader sees the index change in the
 * same tick as the head.
 */
export interface IndexStore {
  get(table: IndexTable, key: Uint8Array): Promise<Uint8Array | undefined>;
  /** `get` at once, by the key's `keyString`, where reading costs no I/O (the memory tables). */
  getNow?(table: IndexTable, key: string): Uint8Array | undefined;
  getMany(table: IndexTable, keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]>;
  /** Reads at most `q.limit` entries: O(limit), whatever the table's size. */
  range(table: IndexTable, q: RangeQuery): Promise<Entry[]>;
  /** The storage ops of a block's index writes, joined to the chain's batch (none for memory: held). */
  stage(ops: IndexOp[]): StoreOp[];
  /** The staged writes reached the chain's storage: make them visible (memory). */
  commitStaged(): void;
  /** The chain's batch failed: forget staged writes (memory). */
  dropStaged(): void;
  /** Writes now, outside any block batch (rebuild). */
  writeNow(ops: IndexOp[]): Promise<void>;
  clearAll(): Promise<void>;
}

/** The index in the chain's LevelDB (or memory-level) database, one sublevel per table. */
export class LevelIndexStore implements IndexStore {
  private readonly sub: Record<IndexTable, Sub>;

  constructor(
    port: StoragePort,
    private readonly chainStore: ChainStore,
  ) {
    const sub = {} as Record<IndexTable, Sub>;
    for (const t of INDEX_TABLES) sub[t] = port.db.sublevel(SUBLEVELS[t], VIEW) as Sub;
    this.sub = sub;
  }

  get(table: IndexTable, key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.sub[table].get(key);
  }

  getMany(table: IndexTable, keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return keys.length === 0 ? Promise.resolve([]) : this.sub[table].getMany(keys);
  }

  async range(table: IndexTable, q: RangeQuery): Promise<Entry[]> {
    const b = bounds(q);
    const opts = { reverse: q.reverse, limit: q.limit, lt: b.upper, [b.lowerExclusive ? 'gt' : 'gte']: b.lower };
    const it = this.sub[table].iterator(opts);
    try {
      const rows = await it.nextv(q.limit);
      return rows.map(([key, value]) => ({ key, value }));
    } finally {
      await it.close();
    }
  }

  stage(ops: IndexOp[]): StoreOp[] {
    return ops.map((op) =>
      op.value === null
        ? { type: 'del', sublevel: this.sub[op.table], key: op.key }
        : { type: 'put', sublevel: this.sub[op.table], key: op.key, value: op.value },
    );
  }

  commitStaged(): void {}

  dropStaged(): void {}

  writeNow(ops: IndexOp[]): Promise<void> {
    return this.chainStore.write(this.stage(ops));
  }

  async clearAll(): Promise<void> {
    for (const t of INDEX_TABLES) await this.sub[t].clear();
  }
}
