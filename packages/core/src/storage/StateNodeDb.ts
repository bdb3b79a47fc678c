import type { BatchDBOp, DB, EncodingOpts } from '@ethereumjs/util';
import { bytesToUnprefixedHex, hexToBytes, unprefixedHexToBytes } from '@ethereumjs/util';
import { compactCopy } from '../util/compactBytes.js';
import { Lru } from '../util/Lru.js';
import type { ChainStore, StoreOp } from './ChainStore.js';

type Value = string | Uint8Array;

/**
 * The trie's database: reads fall through a write buffer to the `state` sublevel; writes stay
 * in the buffer until the block that made them commits, and then go out in that block's batch.
 * A crash therefore never leaves trie nodes of a block that was not committed... and never
 * misses nodes of one that was.
 */
export class StateNodeDb implements DB<string, Value> {
  private buffer = new Map<string, Uint8Array | null>();
  /**
   * Recently read or written nodes, shared by every trie of the chain (account trie, storage
   * tries, historical views): the paths a block touches are read again by the next block, and
   * a LevelDB read plus key encoding costs far more than a map lookup.
   */
  private readonly cache = new Lru<string, Uint8Array>(30_000);

  /**
   * For a chain in memory storage, nodes live in this map instead of the ordered store: they are
   * only ever looked up by hash, and a sorted in-memory tree costs ~10 µs per insert (about a
   * millisecond per block of trie nodes) for an order nobody uses.
   */
  private memoryNodes?: Map<string, Uint8Array>;

  constructor(private readonly store: ChainStore) {}

  /** Keeps nodes in a plain map (memory storage, fresh chain); see `memoryNodes`. */
  keepInMemory(): void {
    this.memoryNodes ??= new Map();
  }

  async get(key: string, _opts?: EncodingOpts): Promise<Value | undefined> {
    const b = this.buffer.get(key);
    if (b !== undefined) return b === null ? undefined : b;
    if (this.memoryNodes) return this.memoryNodes.get(key);
    const c = this.cache.get(key);
    if (c !== undefined) return c;
    const v = await this.store.state.get(toKey(key));
    if (v !== undefined) this.cache.set(key, v);
    return v;
  }

  async put(key: string, val: Value, _opts?: EncodingOpts): Promise<void> {
    this.buffer.set(key, toBytes(val));
  }

  async del(key: string, _opts?: EncodingOpts): Promise<void> {
    // Archive node: trie nodes are content-addressed and shared between roots; never delete.
    void key;
  }

  async batch(ops: BatchDBOp<string, Value>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.buffer.set(op.key, toBytes(op.value as Value));
  }

  shallowCopy(): DB<string, Value> {
    return this;
  }

  async open(): Promise<void> {}

  /** Hands the buffered nodes to the caller's batch and starts a new buffer. */
  drain(): StoreOp[] {
    const ops: StoreOp[] = [];
    if (this.memoryNodes) {
      for (const [k, v] of this.buffer) if (v !== null) this.memoryNodes.set(k, compactCopy(v));
      this.buffer = new Map();
      return ops;
    }
    for (const [k, v] of this.buffer) {
      if (v !== null) {
        ops.push({ type: 'put', sublevel: this.store.state, key: toKey(k), value: v });
        this.cache.set(k, v);
      }
    }
    this.buffer = new Map();
    return ops;
  }

  /** Drops buffered nodes (a failed block). */
  discard(): void {
    this.buffer = new Map();
  }

  get pending(): number {
    return this.buffer.size;
  }
}

function toKey(key: string): Uint8Array {
  return key.startsWith('0x') ? hexToBytes(key as `0x${string}`) : unprefixedHexToBytes(key);
}

function toBytes(v: Value): Uint8Array {
  return typeof v === 'string' ? unprefixedHexToBytes(v) : v;
}

export { bytesToUnprefixedHex };
