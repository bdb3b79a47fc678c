import type { BatchDBOp, DB, EncodingOpts } from '@ethereumjs/util';
import { bytesToUnprefixedHex, unprefixedHexToBytes } from '@ethereumjs/util';
import type { NodeStore } from '../trie/CowTrie.js';
import { GenerationCache } from '../trie/GenerationCache.js';
import type { ChainStore, StoreOp } from './ChainStore.js';
import { NodeTable } from './NodeTable.js';
import { PendingNodes } from './PendingNodes.js';

type Value = string | Uint8Array;

/**
 * The trie's database: reads fall through a write buffer to the `state` sublevel; writes stay
 * in the buffer until the block that made them commits, and then go out in that block's batch.
 * A crash therefore never leaves trie nodes of a block that was not committed... and never
 * misses nodes of one that was.
 *
 * Two faces over the same data: `getNode`/`putNode` by 32-byte hash for CowTrie (no key strings
 * on the path of every block's root), and the hex-string keyed `DB` that @ethereumjs/mpt,
 * its state manager (code under prefixed hashes) and the state dump use. The `state` sublevel
 * holds each node under its 32 hash bytes, as before.
 */
export class StateNodeDb implements DB<string, Value>, NodeStore {
  /** Buffered trie nodes (32-byte keys), copied in. */
  private readonly pendingNodes = new PendingNodes();
  /** Buffered entries under other keys (code under a prefixed hash), by lowercase unprefixed hex. */
  private pendingOther = new Map<string, Uint8Array>();
  /**
   * Recently read or written nodes, shared by every trie of the chain (account trie, storage
   * tries, historical views): the paths a block touches are read again by the next block, and
   * a LevelDB read plus key encoding costs far more than a map lookup.
   */
  private readonly cache = new GenerationCache<string, Uint8Array>(30_000);

  /**
   * For a chain in memory storage, nodes live in this table instead of the ordered store: they
   * are only ever looked up by hash, and a sorted in-memory tree costs ~10 µs per insert (about
   * a millisecond per block of trie nodes) for an order nobody uses. Keys other than 32 bytes
   * (code under its prefixed hash) go to `memoryOther`.
   */
  private memoryNodes?: NodeTable;
  private memoryOther?: Map<string, Uint8Array>;
  /** Scratch for a key parsed from hex (the buffer and the table copy the keys they keep). */
  private readonly keyScratch = new Uint8Array(32);

  constructor(private readonly store: ChainStore) {}

  /** Keeps nodes in a table of their own (memory storage, fresh chain); see `memoryNodes`. */
  keepInMemory(): void {
    this.memoryNodes ??= new NodeTable(MEMORY_NODE_SLOTS);
    this.memoryOther ??= new Map();
  }

  /** The node stored under `hash` (32 bytes); synchronous unless it has to come from the store. */
  getNode(hash: Uint8Array): Uint8Array | undefined | Promise<Uint8Array | undefined> {
    const b = this.pendingNodes.get(hash);
    if (b !== undefined) return b;
    if (this.memoryNodes) return this.memoryNodes.get(hash);
    const hex = bytesToUnprefixedHex(hash);
    const c = this.cache.get(hex);
    if (c !== undefined) return c;
    return this.fromStore(hex, hash.slice());
  }

  /**
   * Buffers a copy of a node under its hash (32 bytes) until the block commits; in memory, copies
   * it into the node table at once. There the buffer kept nothing from a crash (there is no disk)
   * and only copied every node twice; what a failed block leaves in the table is content-addressed,
   * never read unless some root leads to it, as the table already holds the nodes of every root
   * ever reverted away.
   */
  putNode(hash: Uint8Array, enc: Uint8Array): void {
    const nodes = this.memoryNodes;
    if (nodes !== undefined) nodes.set(hash, enc);
    else this.pendingNodes.set(hash, enc);
  }

  async get(key: string, _opts?: EncodingOpts): Promise<Value | undefined> {
    const hash = hashKeyInto(key, this.keyScratch);
    if (hash) return this.getNode(hash);
    const k = key.startsWith('0x') ? key.slice(2).toLowerCase() : key.toLowerCase();
    const b = this.pendingOther.get(k);
    if (b !== undefined) return b;
    if (this.memoryOther) return this.memoryOther.get(k);
    const c = this.cache.get(k);
    if (c !== undefined) return c;
    if (!/^([0-9a-f]{2})*$/.test(k)) return undefined;
    return this.fromStore(k, unprefixedHexToBytes(k));
  }

  async put(key: string, val: Value, _opts?: EncodingOpts): Promise<void> {
    this.putHex(key, val);
  }

  async del(key: string, _opts?: EncodingOpts): Promise<void> {
    // Archive node: trie nodes are content-addressed and shared between roots; never delete.
    void key;
  }

  async batch(ops: BatchDBOp<string, Value>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.putHex(op.key, op.value as Value);
  }

  shallowCopy(): DB<string, Value> {
    return this;
  }

  async open(): Promise<void> {}

  /** Hands the buffered nodes to the caller's batch and starts a new buffer. */
  drain(): StoreOp[] {
    const ops: StoreOp[] = [];
    const nodes = this.memoryNodes;
    if (nodes) {
      this.pendingNodes.forEach((keys, keyAt, bytes, at, length) => {
        nodes.setFrom(keys, keyAt, bytes, at, length);
      });
      if (this.pendingOther.size > 0) for (const [k, v] of this.pendingOther) this.memoryOther?.set(k, v.slice());
    } else {
      const state = this.store.state;
      this.pendingNodes.forEach((keys, keyAt, bytes, at, length) => {
        const key = keys.slice(keyAt, keyAt + 32);
        const value = bytes.slice(at, at + length);
        ops.push({ type: 'put', sublevel: state, key, value });
        this.cache.set(bytesToUnprefixedHex(key), value);
      });
      for (const [k, v] of this.pendingOther) {
        ops.push({ type: 'put', sublevel: state, key: unprefixedHexToBytes(k), value: v });
        this.cache.set(k, v);
      }
    }
    this.discard();
    return ops;
  }

  /** Drops buffered nodes (a failed block). */
  discard(): void {
    this.pendingNodes.clear();
    if (this.pendingOther.size > 0) this.pendingOther = new Map();
  }

  get pending(): number {
    return this.pendingNodes.size + this.pendingOther.size;
  }

  private putHex(key: string, val: Value): void {
    const v = typeof val === 'string' ? unprefixedHexToBytes(val) : val;
    const hash = hashKeyInto(key, this.keyScratch);
    if (hash) this.pendingNodes.set(hash, v);
    else this.pendingOther.set(key.startsWith('0x') ? key.slice(2).toLowerCase() : key.toLowerCase(), v);
  }

  private async fromStore(hex: string, key: Uint8Array): Promise<Uint8Array | undefined> {
    const v = await this.store.state.get(key);
    if (v !== undefined) this.cache.set(hex, v);
    return v;
  }
}

/**
 * Slots of a chain's node table at start: room for ~49,000 nodes, a fresh node's first ~2,000
 * automined transfers (~23 nodes a block), before its first growth. Grown from 1,024 slots, the
 * table rehashed all its keys six times by then, and V8 compiled the growth loop (an OSR compile)
 * inside the first thousand transfers: instructions per transfer of W2 after W1
 * (bench/src/profile/instructions.ts) 5,026k -> 4,918k. The arrays are 3 MiB, zeroed by the
 * system as their pages are first touched.
 */
const MEMORY_NODE_SLOTS = 65_536;

/** Nibble of each hex character code, -1 for anything else. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLE[97 + i] = 10 + i;
  NIBBLE[65 + i] = 10 + i;
}

/** The 32 bytes of a hex key (with or without 0x) written into `out`, or undefined for any other key. */
function hashKeyInto(key: string, out: Uint8Array): Uint8Array | undefined {
  const from = key.length === 66 && key.charCodeAt(1) === 120 ? 2 : 0;
  if (key.length - from !== 64) return undefined;
  for (let i = 0; i < 32; i++) {
    const a = key.charCodeAt(from + 2 * i);
    const b = key.charCodeAt(from + 2 * i + 1);
    const hi = a < 128 ? NIBBLE[a] : -1;
    const lo = b < 128 ? NIBBLE[b] : -1;
    if (hi < 0 || lo < 0) return undefined;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

export { bytesToUnprefixedHex };
