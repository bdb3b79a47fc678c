import { SortedTable } from '../index/SortedTable.js';
import { compactCopy } from '../util/compactBytes.js';
import type { StoreOp, Sub } from './storeOp.js';

interface Table {
  get(key: string): Uint8Array | undefined;
  set(key: string, value: Uint8Array): unknown;
  delete(key: string): unknown;
}

/**
 * The bytes of a key as a string of one char per byte: string order is byte order. The tables'
 * keys (8-byte block numbers, 32-byte hashes: ~4 per automined transaction) are passed as
 * arguments one by one: fromCharCode.apply copied the bytes into an arguments array first (~300
 * bytes of garbage per key).
 */
function latin1(k: Uint8Array): string {
  if (k.length === 32)
    return String.fromCharCode(
      k[0],
      k[1],
      k[2],
      k[3],
      k[4],
      k[5],
      k[6],
      k[7],
      k[8],
      k[9],
      k[10],
      k[11],
      k[12],
      k[13],
      k[14],
      k[15],
      k[16],
      k[17],
      k[18],
      k[19],
      k[20],
      k[21],
      k[22],
      k[23],
      k[24],
      k[25],
      k[26],
      k[27],
      k[28],
      k[29],
      k[30],
      k[31],
    );
  if (k.length === 8) return String.fromCharCode(k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7]);
  if (k.length <= 64) return String.fromCharCode.apply(null, k as unknown as number[]);
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
