import { SortedTable } from '../index/SortedTable.js';
import { compactCopy } from '../util/compactBytes.js';
import type { StoreOp, Sub } from './storeOp.js';

interface Table {
  get(key: string): Uint8Array | undefined;
  set(key: string, value: Uint8Array): unknown;
  delete(key: string): unknown;
}

/** Char codes of an 8- and a 32-byte key, filled per call (latin1 runs to completion). */
const CHARS_8: number[] = Array.from({ length: 8 }, () => 0);
const CHARS_32: number[] = Array.from({ length: 32 }, () => 0);

/**
 * The bytes of a key as a string of one char per byte: string order is byte order. The tables'
 * keys (8-byte block numbers, 32-byte hashes: ~4 per automined transaction) go through an array
 * of small integers kept for it: fromCharCode.apply over the Uint8Array itself copied it into a
 * new arguments list first (~300 bytes of garbage per key); V8 passes a plain array's elements
 * as they are.
 */
function latin1(k: Uint8Array): string {
  const n = k.length;
  const chars = n === 32 ? CHARS_32 : n === 8 ? CHARS_8 : undefined;
  if (chars !== undefined) {
    for (let i = 0; i < n; i++) chars[i] = k[i];
    return String.fromCharCode.apply(null, chars);
  }
  if (n <= 64) return String.fromCharCode.apply(null, k as unknown as number[]);
  return Buffer.from(k.buffer, k.byteOffset, k.byteLength).toString('latin1');
}

/** Above every latin1 key: the open upper end of a range. */
const TOP = '\uffff';

/**
 * The chain's per-block sublevels (blocks, receipts, lookups by hash, log contexts, call frames,
 * pre-state roots) for a chain in memory storage, in plain tables instead of memory-level's
 * tree. That tree is persistent (an insert copies its path) and holds every key as a Uint8Array
 * view: a block's eight puts cost ~20 µs there, and removing blocks on evm_revert as much again,
 * about 3% of an automined transaction, for an order only two scans use (log contexts by block,
 * stored block numbers), which the sorted tables keep. Nothing of a memory chain outlives the
 * process, so the durability the ordered store gives a LevelDB chain is not at stake. Tables
 * keyed by block number (8-byte big-endian, so string order is numeric order) are sorted; those
 * keyed by hash are hash maps. Values are copied into shared slabs as the store copied them.
 */
export class MemoryBlockTables {
  private readonly tables = new Map<Sub, Table>();
  private readonly sorted = new Map<Sub, SortedTable<Uint8Array>>();

  constructor(byNumber: readonly Sub[], byHash: readonly Sub[]) {
    for (const sub of byNumber) {
      const t = new SortedTable<Uint8Array>();
      this.sorted.set(sub, t);
      this.tables.set(sub, t);
    }
    for (const sub of byHash) this.tables.set(sub, new Map<string, Uint8Array>());
  }

  holds(sub: Sub): boolean {
    return this.tables.has(sub);
  }

  get(sub: Sub, key: Uint8Array): Uint8Array | undefined {
    return this.tables.get(sub)?.get(latin1(key));
  }

  /** The operations of `ops` on sublevels these tables do not hold (they go to the store). */
  others(ops: readonly StoreOp[]): StoreOp[] {
    const out: StoreOp[] = [];
    for (let i = 0; i < ops.length; i++) if (!this.tables.has(ops[i].sublevel)) out.push(ops[i]);
    return out;
  }

  /** Applies the operations of `ops` on these tables, in order. */
  apply(ops: readonly StoreOp[]): void {
    // A block's operations on the tables keyed by number share one key array (ChainStore's
    // blockOps, removeBlockOps): its string is made once.
    let lastKey: Uint8Array | undefined;
    let lastString = '';
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      const t = this.tables.get(op.sublevel);
      if (!t) continue;
      if (op.key !== lastKey) {
        lastKey = op.key;
        lastString = latin1(op.key);
      }
      if (op.type === 'put') t.set(lastString, compactCopy(op.value));
      else t.delete(lastString);
    }
  }

  /** Entries of a table keyed by number, from `gte` up to `lte` (both inclusive; no `lte`: to the end), in key order. */
  range(sub: Sub, gte: Uint8Array, lte?: Uint8Array): [Uint8Array, Uint8Array][] {
    const t = this.sorted.get(sub);
    if (!t) throw new Error('range over a table that is not sorted');
    // The keys have one length: the next string after `lte` bounds it inclusively.
    const to = lte ? `${latin1(lte)}\u0000` : TOP;
    return t
      .range(latin1(gte), false, to, false, Number.POSITIVE_INFINITY)
      .map(([k, v]) => [Uint8Array.from(k, (c) => c.charCodeAt(0)), v]);
  }
}
