import type { BatchDBOp, DB, EncodingOpts } from '@ethereumjs/util';
import { bytesToUnprefixedHex, hexToBytes, unprefixedHexToBytes } from '@ethereumjs/util';
import { Lru } from '../util/Lru.js';
import type { ChainStore, StoreOp } from './ChainStore.js';
import { NodeTable } from './NodeTable.js';

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
   * For a chain in memory storage, nodes live in this table instead of the ordered store: they
   * are only ever looked up by hash, and a sorted in-memory tree costs ~10 µs per insert (about
   * a millisecond per block of trie nodes) for an order nobody uses. Keys other than 32 bytes
   * (code under its prefixed hash) go to `memoryOther`.
   */
  private memoryNodes?: NodeTable;
  private memoryOther?: Map<string, Uint8Array>;
  /** Scratch for a key parsed from hex (lookups only; the table copies what it keeps). */
  private readonly keyScratch = new Uint8Array(32);

  constructor(private readonly store: ChainStore) {}

  /** Keeps nodes in a table of their own (memory storage, fresh chain); see `memoryNodes`. */
  keepInMemory(): void {
    this.memoryNodes ??= new NodeTable();
    this.memoryOther ??= new Map();
  }

  async get(key: string, _opts?: EncodingOpts): Promise<Value | undefined> {
    const b = this.buffer.get(key);
    if (b !== undefined) return b === null ? undefined : b;
    if (this.memoryNodes) {
      const k = hashKeyInto(key, this.keyScratch);
      return k ? this.memoryNodes.get(k) : this.memoryOther?.get(key);
    }
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
      for (const [k, v] of this.buffer) {
        if (v === null) continue;
        const hash = hashKeyInto(k, this.keyScratch);
        if (hash) this.memoryNodes.set(hash, v);
        else this.memoryOther?.set(k, v.slice());
      }
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

function toKey(key: string): Uint8Array {
  return key.startsWith('0x') ? hexToBytes(key as `0x${string}`) : unprefixedHexToBytes(key);
}

function toBytes(v: Value): Uint8Array {
  return typeof v === 'string' ? unprefixedHexToBytes(v) : v;
}

export { bytesToUnprefixedHex };
