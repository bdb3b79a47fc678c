import type { Block } from '@ethereumjs/block';
import { createBlockFromRLP } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { Address, bytesToBigInt } from '@ethereumjs/util';
import { decodeReceipts, encodeReceipts } from '../chain/receiptCodec.js';
import type { StoredBlock, StoredReceipt } from '../chain/types.js';
import { storedBlock } from '../chain/storedBlock.js';
import type { CallFrame } from '../trace/callFrames.js';
import { decodeBlockFrames, encodeBlockFrames } from '../trace/frameCodec.js';
import { Lru } from '../util/Lru.js';
// The index's fixed-width helpers: they never read `.buffer` of a small new array (see index/codec.ts).
import { concat, keyString, readU32, readU64, u64 } from '../index/codec.js';
import { keepPrimed } from '../index/keepPrimed.js';
import { BLOCK_CACHE_BLOCKS, BLOCK_CACHE_BYTES, HASH_CACHE_ENTRIES, storedBlockWeight } from './blockCacheBounds.js';
import { META, SUBLEVELS, txKeyValue } from './keys.js';
import { MemoryBlockTables } from './MemoryBlockTables.js';
import { MemoryHeads } from './MemoryHeads.js';
import { unpaddedBytes } from './unpaddedBytes.js';
import type { StoragePort } from './StoragePort.js';
import type { StoreOp, Sub } from './storeOp.js';

const VIEW = { keyEncoding: 'view', valueEncoding: 'view' } as const;

export type { StoreOp } from './storeOp.js';

export interface HeadPointer {
  number: bigint;
  hash: Uint8Array;
}

/**
 * Blocks, receipts and lookups on top of the storage port. Decoded blocks are kept in a
 * bounded LRU, so recent blocks (the ones clients ask for) cost no decode.
 */
export class ChainStore {
  readonly blocks: Sub;
  readonly hashes: Sub;
  readonly txs: Sub;
  readonly receipts: Sub;
  readonly state: Sub;
  readonly meta: Sub;
  readonly logCtx: Sub;
  readonly callFrames: Sub;
  readonly preState: Sub;
  private readonly cache = new Lru<bigint, StoredBlock>(BLOCK_CACHE_BLOCKS, {
    max: BLOCK_CACHE_BYTES,
    weigh: storedBlockWeight,
  });
  /**
   * Blocks whose hash is given, not computed from their header (a fork's first block: the
   * upstream's hash, when its header does not re-encode to it here): always served from here.
   */
  private readonly pinned = new Map<bigint, StoredBlock>();
  /** Block numbers by hash, keyed by the hash's latin1 string (no hex to make). */
  private readonly hashCache = new Lru<string, bigint>(HASH_CACHE_ENTRIES);
  /**
   * A chain in memory storage keeps its per-block sublevels in tables of its own (see
   * MemoryBlockTables); `meta` stays in the store, where a fork's record is read directly.
   */
  private readonly memory?: MemoryBlockTables;
  /** A chain in memory storage keeps its head pointer and head state root here (see MemoryHeads). */
  private readonly heads?: MemoryHeads;
  /** Blocks left whose log context blockOps encodes even without logs, for its feedback (see blockOps). */
  private logContextPrimes = 16;

  constructor(
    readonly port: StoragePort,
    private readonly common: Common,
  ) {
    const db = port.db;
    this.blocks = db.sublevel(SUBLEVELS.blocks, VIEW);
    this.hashes = db.sublevel(SUBLEVELS.hashes, VIEW);
    this.txs = db.sublevel(SUBLEVELS.txs, VIEW);
    this.receipts = db.sublevel(SUBLEVELS.receipts, VIEW);
    this.state = db.sublevel(SUBLEVELS.state, VIEW);
    this.meta = db.sublevel(SUBLEVELS.meta, VIEW);
    this.logCtx = db.sublevel(SUBLEVELS.logCtx, VIEW);
    this.callFrames = db.sublevel(SUBLEVELS.callFrames, VIEW);
    this.preState = db.sublevel(SUBLEVELS.preState, VIEW);
    if (port.kind === 'memory')
      this.memory = new MemoryBlockTables(
        [this.blocks, this.receipts, this.logCtx, this.callFrames, this.preState],
        [this.hashes, this.txs],
      );
    if (port.kind === 'memory') this.heads = new MemoryHeads(this.meta);
  }

  /** The value under `key` in one of the chain's sublevels (from the memory tables when they hold it). */
  read(sub: Sub, key: Uint8Array): Promise<Uint8Array | undefined> {
    const memory = this.memory;
    if (memory?.holds(sub)) return Promise.resolve(memory.get(sub, key));
    return sub.get(key);
  }

  async getHead(): Promise<HeadPointer | undefined> {
    const v = this.heads ? (this.heads.get(META.head) ?? undefined) : await this.meta.get(META.head);
    if (v === undefined) return undefined;
    return { number: readU64(v), hash: v.subarray(8) };
  }

  async getMeta(key: Uint8Array): Promise<Uint8Array | undefined> {
    const held = this.heads?.get(key);
    if (held !== undefined && held !== null) return held;
    // A head key a memory chain has not written (or deleted) is absent, not read from the store.
    if (held === undefined && this.heads !== undefined) return undefined;
    return this.meta.get(key);
  }

  /** Operations that write a block, its receipts, lookups and the new head. */
  blockOps(sb: StoredBlock, headState: Uint8Array): StoreOp[] {
    const n = sb.number;
    // One key for the tables keyed by number (nothing in a write changes or keeps a key it is given).
    const key = u64(n);
    const record = RLP.encode([
      sb.rlp ?? sb.block.serialize(),
      sendersBytes(sb.senders),
      unpaddedBytes(sb.totalDifficulty),
    ]);
    const ops: StoreOp[] = [
      { type: 'put', sublevel: this.blocks, key, value: record },
      { type: 'put', sublevel: this.hashes, key: sb.hash, value: u64(n) },
      { type: 'put', sublevel: this.receipts, key, value: encodeReceipts(sb.receipts) },
      { type: 'put', sublevel: this.meta, key: META.head, value: concat(key, sb.hash) },
      { type: 'put', sublevel: this.meta, key: META.headState, value: headState },
    ];
    const txs = sb.block.transactions;
    // The log context's op is made and pushed for every block and taken back off for a block
    // without logs, and the context is encoded for the first blocks whether they have logs or
    // not: a fresh node's value transfers never ran this code, and the first block with logs (a
    // contract's first event) threw blockOps' optimised code away ('Insufficient type feedback'
    // at `this.logCtx`, W4 after W1,W2). Nothing differs in what is written.
    const hasLogs = anyLogs(sb.receipts);
    const logContext = hasLogs || this.logContextPrimes-- > 0 ? encodeLogContext(sb) : NO_LOG_CONTEXT;
    ops.push({ type: 'put', sublevel: this.logCtx, key, value: logContext });
    if (!hasLogs) ops.pop();
    for (let i = 0; i < txs.length; i++) {
      ops.push({ type: 'put', sublevel: this.txs, key: txs[i].hash(), value: txKeyValue(n, i) });
    }
    if (sb.callFrames && txs.length > 0)
      ops.push({ type: 'put', sublevel: this.callFrames, key, value: encodeBlockFrames(sb.callFrames) });
    if (sb.preStateRoot) ops.push({ type: 'put', sublevel: this.preState, key, value: sb.preStateRoot });
    return ops;
  }

  /** Operations that remove a block and its lookups (used when the head moves back). */
  removeBlockOps(sb: StoredBlock): StoreOp[] {
    const key = u64(sb.number);
    const ops: StoreOp[] = [
      { type: 'del', sublevel: this.blocks, key },
      { type: 'del', sublevel: this.hashes, key: sb.hash },
      { type: 'del', sublevel: this.receipts, key },
      { type: 'del', sublevel: this.logCtx, key },
      { type: 'del', sublevel: this.callFrames, key },
      { type: 'del', sublevel: this.preState, key },
    ];
    for (const tx of sb.block.transactions) ops.push({ type: 'del', sublevel: this.txs, key: tx.hash() });
    return ops;
  }

  async write(ops: StoreOp[]): Promise<void> {
    const memory = this.memory;
    const heads = this.heads;
    if (!memory || !heads) return this.writeStore(ops);
    // The store's part first: when it fails, nothing of the batch is applied, as before. An
    // automined block has no part there but its head (held by MemoryHeads): no batch, no await.
    // With anything else for the store (a plugin's block hook), the head goes in that batch too.
    let forStore = false;
    for (let i = 0; i < ops.length && !forStore; i++) {
      const op = ops[i];
      forStore = !memory.holds(op.sublevel) && !heads.holds(op);
    }
    if (forStore) await this.writeStore(memory.others(ops));
    // A closed store refuses every batch, as when the head went to it.
    else if (this.port.db.status !== 'open') throw new Error(`storage is ${this.port.db.status}: batch not written`);
    memory.apply(ops);
    heads.apply(ops);
  }

  /**
   * The port's promise handed back, not wrapped in an async function's (whose resolution with a
   * promise took two more microtask turns per block); write, async, awaits it, and a throw here
   * becomes its rejection.
   */
  private writeStore(ops: StoreOp[]): Promise<void> {
    if (this.port.writeBatch) return this.port.writeBatch(ops);
    // biome-ignore lint/suspicious/noExplicitAny: abstract-level's batch typing does not model mixed sublevels
    return this.port.db.batch(ops as any, VIEW);
  }

  /** Numbers of the blocks stored from `from` on, ascending. */
  async storedNumbersFrom(from: bigint): Promise<bigint[]> {
    const out: bigint[] = [];
    if (this.memory) {
      for (const [k] of this.memory.range(this.blocks, u64(from))) out.push(readU64(k));
      return out;
    }
    for await (const k of this.blocks.keys({ gte: u64(from) })) out.push(readU64(k));
    return out;
  }

  remember(sb: StoredBlock): void {
    this.cache.set(sb.number, sb);
    // A chain in memory has its `hashes` table in memory (MemoryBlockTables): a lookup there is
    // no slower than here, and a key string, bigint and map entry per block kept for 8,192
    // blocks were copied by the young-generation GC and then marked for good.
    if (this.memory === undefined) this.hashCache.set(keyString(sb.hash), sb.number);
  }

  /** Keeps `sb` (its hash as given) as the block at its number until it is forgotten. */
  pin(sb: StoredBlock): void {
    this.pinned.set(sb.number, sb);
    this.cache.set(sb.number, sb);
    this.hashCache.set(keyString(sb.hash), sb.number);
  }

  forget(sb: StoredBlock): void {
    if (this.pinned.get(sb.number) === sb) this.pinned.delete(sb.number);
    this.cache.delete(sb.number);
    this.hashCache.delete(keyString(sb.hash));
  }

  /** The block at `n` when it is held decoded (pinned or cached): what getBlock answers without a read. */
  heldBlock(n: bigint): StoredBlock | undefined {
    return this.pinned.get(n) ?? this.cache.get(n);
  }

  async getBlock(n: bigint): Promise<StoredBlock | undefined> {
    const hit = this.pinned.get(n) ?? this.cache.get(n);
    if (hit) return hit;
    const key = u64(n);
    const [rec, rcp] = await Promise.all([this.read(this.blocks, key), this.read(this.receipts, key)]);
    if (rec === undefined) return undefined;
    const sb = this.decode(n, rec, rcp);
    this.cache.set(n, sb);
    return sb;
  }

  async getBlockNumberByHash(hash: Uint8Array): Promise<bigint | undefined> {
    const key = keyString(hash);
    const hit = this.hashCache.get(key);
    if (hit !== undefined) return hit;
    const v = await this.read(this.hashes, hash);
    if (v === undefined) return undefined;
    const n = readU64(v);
    this.hashCache.set(key, n);
    return n;
  }

  /**
   * Log contexts of blocks from..to that have logs, oldest first, read with one range scan:
   * blocks without logs have no entry, so empty stretches of the chain cost nothing.
   */
  async logContexts(from: bigint, to: bigint): Promise<LogContext[]> {
    const out: LogContext[] = [];
    if (this.memory) {
      for (const [k, v] of this.memory.range(this.logCtx, u64(from), u64(to)))
        out.push(decodeLogContext(readU64(k), v));
      return out;
    }
    for await (const [k, v] of this.logCtx.iterator({ gte: u64(from), lte: u64(to) })) {
      out.push(decodeLogContext(readU64(k), v));
    }
    return out;
  }

  /** Log context of one block; undefined when it has no logs (or predates log contexts). */
  async getLogContext(n: bigint): Promise<LogContext | undefined> {
    const v = await this.read(this.logCtx, u64(n));
    return v === undefined ? undefined : decodeLogContext(n, v);
  }

  /** The decoded block when the cache holds it: no read, no decode (logs/LogIndex renders from it). */
  cachedBlock(n: bigint): StoredBlock | undefined {
    return this.cache.get(n);
  }

  /** Receipts of a block (from the block cache when it is there). */
  async getReceipts(n: bigint): Promise<StoredReceipt[] | undefined> {
    const hit = this.cache.get(n);
    if (hit) return hit.receipts;
    const v = await this.read(this.receipts, u64(n));
    return v === undefined ? undefined : decodeReceipts(v);
  }

  /**
   * The call frames of a block's transactions: kept on the block when it is at hand (built
   * here), else read from storage. Undefined when the block was mined without capturing them.
   */
  async getCallFrames(sb: StoredBlock): Promise<(CallFrame | undefined)[] | undefined> {
    if (sb.callFrames) return sb.callFrames;
    const txs = sb.block.transactions;
    if (txs.length === 0) return [];
    const v = await this.read(this.callFrames, u64(sb.number));
    if (v === undefined) return undefined;
    const frames = decodeBlockFrames(
      v,
      txs.map((tx) => tx.data),
    );
    // Blocks in the cache keep theirs: pages over one block decode them once.
    if (this.cache.get(sb.number) === sb) sb.callFrames = frames;
    return frames;
  }

  /** The state root block `n` was built on when that was not its parent's post-state (see StoredBlock.preStateRoot). */
  async getPreStateRoot(sb: StoredBlock): Promise<Uint8Array | undefined> {
    return sb.preStateRoot ?? (await this.read(this.preState, u64(sb.number)));
  }

  /**
   * Whether a transaction hash is stored, answered without a promise when the chain is in memory;
   * undefined otherwise (then await getTxLocation). Every submitted transaction asks once.
   */
  hasTxNow(hash: Uint8Array): boolean | undefined {
    const memory = this.memory;
    if (memory?.holds(this.txs)) return memory.get(this.txs, hash) !== undefined;
    return undefined;
  }

  /**
   * Where a transaction is stored, answered without a promise when the chain is in memory
   * (undefined: not stored); null otherwise (then await getTxLocation).
   */
  txLocationNow(hash: Uint8Array): { number: bigint; index: number } | undefined | null {
    const memory = this.memory;
    if (!memory?.holds(this.txs)) return null;
    const v = memory.get(this.txs, hash);
    return v === undefined ? undefined : { number: readU64(v), index: readU32(v, 8) };
  }

  async getTxLocation(hash: Uint8Array): Promise<{ number: bigint; index: number } | undefined> {
    const v = await this.read(this.txs, hash);
    if (v === undefined) return undefined;
    return { number: readU64(v), index: readU32(v, 8) };
  }

  private decode(n: bigint, rec: Uint8Array, rcp: Uint8Array | undefined): StoredBlock {
    const [blockBytes, sendersBytes, tdBytes] = RLP.decode(rec) as Uint8Array[];
    const block: Block = createBlockFromRLP(blockBytes, { common: this.common, setHardfork: true });
    const senders: Address[] = [];
    for (let o = 0; o < sendersBytes.length; o += 20) senders.push(new Address(sendersBytes.slice(o, o + 20)));
    const receipts: StoredReceipt[] = rcp ? decodeReceipts(rcp) : [];
    return storedBlock({
      block,
      number: n,
      hash: block.hash(),
      senders,
      receipts,
      totalDifficulty: bytesToBigInt(tdBytes),
      size: blockBytes.length,
      rlp: blockBytes,
    });
  }
}

/** The senders' 20 address bytes end to end (no array of views and no spread of it per block). */
function sendersBytes(senders: readonly Address[]): Uint8Array {
  const out = new Uint8Array(senders.length * 20);
  for (let i = 0; i < senders.length; i++) out.set(senders[i].bytes, i * 20);
  return out;
}

/** The value blockOps' log-context op holds for a block without logs (the op is not written). */
const NO_LOG_CONTEXT = new Uint8Array(0);

/** Whether a receipt of the block has a log (a loop: `some` with a closure was a function per block). */
function anyLogs(receipts: readonly StoredReceipt[]): boolean {
  for (let i = 0; i < receipts.length; i++) if (receipts[i].logs.length > 0) return true;
  return false;
}

/** What eth_getLogs needs of a block besides its receipts. */
export interface LogContext {
  number: bigint;
  hash: Uint8Array;
  timestamp: bigint;
  bloom: Uint8Array;
  txHashes: Uint8Array[];
}

function encodeLogContext(sb: StoredBlock): Uint8Array {
  return RLP.encode([
    sb.hash,
    unpaddedBytes(sb.block.header.timestamp),
    sb.block.header.logsBloom,
    sb.block.transactions.map((tx) => tx.hash()),
  ]);
}

function decodeLogContext(number: bigint, v: Uint8Array): LogContext {
  const [hash, ts, bloom, txHashes] = RLP.decode(v) as unknown as [Uint8Array, Uint8Array, Uint8Array, Uint8Array[]];
  return { number, hash, timestamp: bytesToBigInt(ts), bloom, txHashes };
}

// The block caches start evicting only past their bound (1,024 blocks): on a fresh node that
// came in the middle of a workload, after commitBlock (which inlines the caches' set) was
// optimised, and V8 threw it away for the eviction's missing feedback. A throwaway cache of one
// entry evicts here at load (a class's methods share their feedback between instances, which V8
// starts keeping only after a function has run a while; the weighed path, for heavy blocks, is left to warm
// up by itself). It is kept for the process's life: feedback holds maps weakly, and once the
// throwaway cache was collected with its map, the eviction's feedback was cleared and the next Lru
// started a new map, so the eviction still threw commitBlock's optimised code away ('Insufficient
// type feedback' at Lru.js `this.evictOldest`, inlined through ChainStore.remember; 3 of 13 W4
// traces, the block cache's 1,024th block falling in W4).
{
  const primer = keepPrimed(new Lru<bigint, bigint>(1));
  for (let n = 0n; n < 64n; n++) primer.set(n, n);
}
