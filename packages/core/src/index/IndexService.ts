import { type Account, Address, bytesToHex, createAddressFromString, equalsBytes } from '@ethereumjs/util';
import type { ChainService } from '../chain/ChainService.js';
import { ChainStateManager } from '../chain/ChainStateManager.js';
import { SYSTEM_CONTRACTS } from '../chain/systemContracts.js';
import type { StoredBlock } from '../chain/types.js';
import type { EventBus } from '../events/EventBus.js';
import type { Logger } from '../util/logger.js';
import type { StoreOp } from '../storage/ChainStore.js';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import { BatchWriter } from './BatchWriter.js';
import { type BlockRows, blockRows } from './blockRows.js';
import { readU32, u32 } from './codec.js';
import { BlockScope } from './BlockScope.js';
import { endIndexBatch, indexBlock } from './indexBlock.js';
import { INDEX_VERSION, META_KEYS } from './indexKeys.js';
import { IndexQueries } from './IndexQueries.js';
import { type IndexStore, LevelIndexStore } from './IndexStore.js';
import { MemoryIndexStore } from './MemoryIndexStore.js';
import { type Progress, defaultProgress, silentProgress } from './progress.js';
import { BlockStateReader, type KnownState } from './StateReader.js';
import type { RequestActivity } from '../kernel/RequestActivity.js';
import { unindexBlock } from './unindexBlock.js';

export interface IndexOptions {
  /** Drop the index and rebuild it from the blocks on start. */
  reindex?: boolean;
  /** Reports rebuild progress (default: a bar on a terminal's stderr, else log lines). */
  progress?: Progress;
  /** How long the node must be without blocks and requests before the index catches up (ms, default 50). */
  idleMs?: number;
  /** Most blocks waiting to be indexed on a node that never pauses (default 2048). */
  maxPending?: number;
}

/** Blocks indexed per storage batch while rebuilding or catching up with the head. */
const REBUILD_BATCH = 64;
/** The index catches up in a pause: no block and no request for this long... */
const IDLE_MS = 50;
/**
 * ...or, on a node that never pauses, once this many blocks wait: then it indexes the oldest
 * batch, so the wait stays bounded. The bound is what the first explorer read after a long burst
 * waits for (every query first brings the index to the head: ~45-60 µs a block of transfers
 * caught up in bulk here, so ~0.1 s) and what waiting blocks hold: each its rows and account reads (~1 KB), and the block,
 * which memory mode keeps anyway.
 */
const MAX_PENDING = 2048;

/** What `follow` reads of a block while its state is the head's. */
interface Captured {
  rows: BlockRows;
  known: KnownState;
}

/**
 * What the indexer needs of the touched accounts (in rows.touched's order): balances, and for each
 * transaction's `to` whether it holds code (read for every `to`, so that value transfers give this
 * loop its feedback before the first call).
 */
function capturedState(rows: BlockRows, accounts: readonly (Account | undefined)[]): Captured {
  const balances: bigint[] = [];
  for (let i = 0; i < accounts.length; i++) balances.push(accounts[i]?.balance ?? 0n);
  const hasCode: boolean[] = [];
  const txs = rows.txs;
  for (let i = 0; i < txs.length; i++) {
    const slot = txs[i].toSlot;
    if (slot >= 0) hasCode[slot] = accounts[slot]?.isContract() === true;
  }
  return { rows, known: { balances, hasCode } };
}

interface Pending {
  sb: StoredBlock;
  captured?: Captured;
}

/** An index option's value, or its default; anything but a finite number ≥ 0 (an integer if asked) is refused by name. */
function checkedOption(name: string, value: unknown, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value)))
    throw new AshlarError(
      ErrorCodes.OPTIONS,
      `index option ${name} must be ${integer ? 'an integer' : 'a number'} ≥ 0, got ${String(value)}`,
    );
  return value;
}

/** Nothing counts requests: pauses are told by blocks alone. */
const NO_ACTIVITY: RequestActivity = { count: 0 };

type Batch = { kind: 'commit'; hash: string } | { kind: 'remove'; head: string; last: bigint };

/**
 * The explorer index: per-address and per-token lists, token metadata and holder balances,
 * coin-balance history, withdrawals and counters.
 *
 * Indexing is off the path of a transaction and out of a burst of them: a committed block only
 * joins `pending` with what the indexer will read of its state, and the index catches up in
 * batches in a pause (no block and no request for IDLE_MS; it stops at the next request), or as
 * soon as anything reads it (every query first `sync`s: read-your-writes); on a node that never
 * pauses, the oldest blocks are indexed once more than MAX_PENDING wait. A revert drops pending
 * blocks for free and undoes indexed ones in the chain's revert batch, so the index never holds a
 * block the chain lost. Catch-up batches carry the index head with them; after a crash the index
 * resumes from that head (or rebuilds when it no longer matches the chain), as it does for a node
 * whose index is missing or of another format.
 */
export class IndexService {
  readonly store: IndexStore;
  /** Queries that first bring the index up to the head. */
  readonly queries: IndexQueries;
  /** The same queries without that wait (the indexer reads its own state through these). */
  private readonly rawQueries: IndexQueries;
  private readonly writer: BatchWriter;
  private batch?: Batch;
  /**
   * Committed blocks not indexed yet, oldest first, each with the rows and account reads taken
   * at commit (see `follow`). Kept beside the block, not in a WeakMap keyed by it: an ephemeron
   * insert per block cost ~2 µs.
   */
  private pending: Pending[] = [];
  /** Number of the last block the index holds. */
  private indexedTo = -1n;
  private draining?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private lastBlockAt = 0;
  /** The request count at the idle timer's last look, and when it last saw it move. */
  private seenRequests = 0;
  private lastRequestAt = 0;
  /** An immediate is queued to index the oldest batch of a queue past its bound. */
  private trimQueued = false;
  /** Set when indexing failed: the index stops (stays at its last good block) until the next start rebuilds it. */
  private broken = false;

  private readonly idleMs: number;
  private readonly maxPending: number;

  private constructor(
    private readonly chain: ChainService,
    private readonly logger: Logger,
    private readonly activity: RequestActivity,
    options: IndexOptions,
  ) {
    this.idleMs = checkedOption('idleMs', options.idleMs, IDLE_MS, false);
    this.maxPending = checkedOption('maxPending', options.maxPending, MAX_PENDING, true);
    // A chain in memory keeps its index in sorted tables of its own (see MemoryIndexStore).
    this.store =
      chain.storage.kind === 'memory' ? new MemoryIndexStore() : new LevelIndexStore(chain.storage, chain.store);
    this.rawQueries = new IndexQueries(this.store);
    this.queries = syncedQueries(this.rawQueries, () => this.sync());
    this.writer = new BatchWriter(this.store, this.store instanceof MemoryIndexStore ? 0 : 50_000);
  }

  /** Brings the index up to the head (rebuilding if needed), then follows every block. */
  static async attach(
    chain: ChainService,
    events: EventBus,
    logger: Logger,
    options: IndexOptions = {},
    activity: RequestActivity = NO_ACTIVITY,
  ): Promise<IndexService> {
    const svc = new IndexService(chain, logger, activity, options);
    await chain.exclusive(async () => {
      await svc.catchUp(options);
      svc.indexedTo = chain.head.number;
      // Registered inside the lock: no block can be committed between catching up and following.
      chain.onRemove((sb) => svc.onRemove(sb));
      chain.onCommitted((sb) => svc.follow(sb));
      // A clean stop leaves the index at the head: the next start has nothing to catch up.
      chain.onClose(() => svc.sync());
    });
    // The chain emits this right after its batch is written: the index's undo writes are in.
    events.on('revert', () => {
      if (svc.batch?.kind === 'remove') svc.committed();
      svc.batch = undefined;
    });
    return svc;
  }

  /**
   * A block was committed: it waits for the next catch-up. What the indexer will read of the
   * state this block left (balances of the accounts it touched, whether called addresses hold
   * code) is read now, while that state is the head's and its accounts are in the cache: a
   * few cache hits, where reading them later means a fresh trie view per block.
   *
   * Not async: in memory every account read is at hand (the block just wrote most of them, and an
   * ERC-20 transfer's recipient, named only by its log, has its trie path in memory), so the
   * chain's commit gets no promise to await per block. A read that needs a promise (a node still
   * on disk, a fork) continues in followReading, which the commit awaits.
   */
  private follow(sb: StoredBlock): Promise<void> | undefined {
    if (this.broken) return undefined;
    const entry: Pending = { sb };
    const accounts: (Account | undefined)[] = [];
    let rows: BlockRows;
    try {
      rows = blockRows(sb, sb.callFrames);
      const sm = this.chain.vm.stateManager;
      if (!(sm instanceof ChainStateManager)) return this.followReading(entry, rows, accounts);
      // By position in rows.touched (each address once): no key string, no Map per block.
      const touched = rows.touched;
      for (let i = 0; i < touched.length; i++) {
        const now = sm.readAccountNow(new Address(touched[i].address));
        if (now === undefined) return this.followReading(entry, rows, accounts);
        accounts.push(now ?? undefined);
      }
      entry.captured = capturedState(rows, accounts);
    } catch {
      // Nothing captured: the catch-up reads a view of the block's state instead.
    }
    this.enqueue(entry);
    return undefined;
  }

  /** The rest of `follow` from the first account it could not read without a promise. */
  private async followReading(entry: Pending, rows: BlockRows, accounts: (Account | undefined)[]): Promise<void> {
    try {
      const sm = this.chain.vm.stateManager;
      const touched = rows.touched;
      for (let i = accounts.length; i < touched.length; i++) {
        const address = new Address(touched[i].address);
        const now = sm instanceof ChainStateManager ? sm.readAccountNow(address) : undefined;
        accounts.push(now === undefined ? await sm.getAccount(address) : (now ?? undefined));
      }
      entry.captured = capturedState(rows, accounts);
    } catch {
      // As in follow: the catch-up reads a view of the block's state.
    }
    this.enqueue(entry);
  }

  /** Queues a followed block for the next catch-up: in a pause, at a read, or past the bound. */
  private enqueue(entry: Pending): void {
    const pending = this.pending;
    pending.push(entry);
    this.lastBlockAt = performance.now();
    // The request that made this block is the block's moment, not a later one.
    this.seenRequests = this.activity.count;
    if (!this.timer) this.armTimer(this.idleMs);
    if (pending.length <= this.maxPending) return;
    // Normally after the reply that made this block has gone out; but an in-process caller
    // awaiting one request after another never lets an immediate (or the idle timer) run, so a
    // batch past the bound is queued right behind this block.
    if (pending.length > this.maxPending + REBUILD_BATCH) void this.step().catch(() => undefined);
    else if (!this.trimQueued) {
      this.trimQueued = true;
      setImmediate(() => {
        this.trimQueued = false;
        if (this.pending.length > this.maxPending) void this.step().catch(() => undefined);
      });
    }
  }

  /**
   * Looks again in `ms` while blocks wait; catches up once neither a block nor a request came for
   * idleMs. Requests are seen as a count that moved between two looks, taken as a request at the
   * later look: a pause is never shorter than idleMs.
   */
  private armTimer(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.pending.length === 0 || this.broken) return;
      const now = performance.now();
      const requests = this.activity.count;
      if (requests !== this.seenRequests) {
        this.seenRequests = requests;
        this.lastRequestAt = now;
      }
      const quiet = now - Math.max(this.lastBlockAt, this.lastRequestAt);
      if (quiet < this.idleMs) this.armTimer(this.idleMs - quiet);
      else void this.catchUpWhileIdle().catch(() => undefined);
    }, ms);
    this.timer.unref();
  }

  /** Indexes batch after batch until the queue is empty or a request or block comes; then waits for the next pause. */
  private async catchUpWhileIdle(): Promise<void> {
    while (this.pending.length > 0 && !this.broken) {
      const requests = this.activity.count;
      const lastBlock = this.lastBlockAt;
      await this.step();
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.activity.count !== requests || this.lastBlockAt !== lastBlock) break;
    }
    if (this.pending.length > 0 && !this.timer) this.armTimer(this.idleMs);
  }

  /** Number of committed blocks the index does not hold yet. */
  get lag(): number {
    return this.pending.length;
  }

  /**
   * Indexes every block committed so far; resolves when the index holds them (blocks committed
   * meanwhile are indexed too when they fall in the same batches, not waited for).
   */
  async sync(): Promise<void> {
    const pending = this.pending;
    if (pending.length === 0 || this.broken) return this.draining;
    const target = pending[pending.length - 1].sb.number;
    while (!this.broken && this.pending.length > 0 && this.indexedTo < target) {
      await this.step();
      // Between batches, let the event loop serve what does not need the chain (a long
      // catch-up must not hold every other client).
      if (this.pending.length > 0 && this.indexedTo < target) await new Promise<void>((r) => setImmediate(r));
    }
  }

  /**
   * Indexes the oldest pending batch, in a chain lock of its own (a block can be mined between
   * two batches) and written with the index head; one batch at a time.
   */
  private step(): Promise<void> {
    this.draining ??= this.chain
      .exclusive(() => this.indexBatch())
      .finally(() => {
        this.draining = undefined;
      });
    return this.draining;
  }

  private async indexBatch(): Promise<void> {
    if (this.pending.length === 0 || this.broken) return;
    const blocks = this.pending.slice(0, REBUILD_BATCH);
    this.begin();
    try {
      const scope = new BlockScope(this.writer);
      for (const p of blocks) await this.indexBlockAt(scope, p);
      endIndexBatch(scope, blocks[blocks.length - 1].sb);
      await this.store.writeNow(this.writer.take());
      this.writer.committed();
    } catch (e) {
      this.fail(blocks[0].sb, e);
      return;
    }
    this.pending = this.pending.slice(blocks.length);
    this.indexedTo = blocks[blocks.length - 1].sb.number;
  }

  /**
   * Indexes one committed block, reading the state it left (not a later dev edit of the head).
   * Not async itself when the block's rows were captured (every followed block): indexBlock's
   * promise is handed back, one suspension and promise fewer per block.
   */
  private indexBlockAt(scope: BlockScope, { sb, captured: got }: Pending): Promise<void> {
    const chain = this.chain;
    const root = sb.block.header.stateRoot;
    const view = async () =>
      chain.isHead(sb) && equalsBytes(chain.headStateRoot, root)
        ? chain.vm.stateManager
        : await chain.stateManagerAt(root);
    const reader = new BlockStateReader(chain, sb, view, got?.known);
    if (got !== undefined) return indexBlock(scope, { sb, rows: got.rows, reader, common: chain.common });
    return this.rowsOf(sb).then((rows) => indexBlock(scope, { sb, rows, reader, common: chain.common }));
  }

  private committed(): void {
    this.store.commitStaged();
    this.writer.committed();
  }

  /**
   * Starts a batch. The previous one normally settled on the chain's event; if it did not (a
   * `block` listener before ours threw), the head tells whether it reached storage: keep it if
   * so, else drop what it staged.
   */
  private begin(): void {
    const b = this.batch;
    const head = this.chain.head;
    const written = b?.kind === 'commit' ? b.hash === bytesToHex(head.hash) : b !== undefined && head.number < b.last;
    if (written) this.committed();
    else this.store.dropStaged();
    this.batch = undefined;
    this.writer.begin();
  }

  /** False once an indexing failure stopped the index (it is rebuilt on the next start). */
  get healthy(): boolean {
    return !this.broken;
  }

  /** Writes undoing block `sb` (the head moves back past it); none, at once, for a block not indexed yet. */
  private onRemove(sb: StoredBlock): StoreOp[] | Promise<StoreOp[]> {
    if (this.broken) return [];
    // A block never indexed costs nothing to undo: it only leaves the queue.
    if (sb.number > this.indexedTo) {
      // `pending` is in block order (commits append, removals take from the top), so the blocks
      // from this one up are its tail: popped, not a filtered copy of the whole queue per removed
      // block (up to MAX_PENDING entries each: ~20 µs of a 5-block evm_revert in a test suite).
      const pending = this.pending;
      while (pending.length > 0 && pending[pending.length - 1].sb.number >= sb.number) pending.pop();
      return [];
    }
    return this.unindex(sb);
  }

  private async unindex(sb: StoredBlock): Promise<StoreOp[]> {
    const head = bytesToHex(this.chain.head.hash);
    const b = this.batch;
    // A revert removes blocks head-first in one batch: the first of them starts the batch.
    if (!(b?.kind === 'remove' && b.head === head && sb.number < b.last)) this.begin();
    this.batch = { kind: 'remove', head, last: sb.number };
    try {
      const rows = await this.rowsOf(sb);
      await unindexBlock(this.writer, { sb, rows, store: this.store, common: this.chain.common });
      this.indexedTo = sb.number - 1n;
      return this.store.stage(this.writer.take());
    } catch (e) {
      return this.fail(sb, e);
    }
  }

  private fail(sb: StoredBlock, e: unknown): StoreOp[] {
    this.broken = true;
    this.writer.reset();
    this.store.dropStaged();
    this.logger.error(
      `explorer index stopped at block ${sb.number}: ${e instanceof Error ? (e.stack ?? e.message) : e}; it is rebuilt on the next start`,
    );
    return [];
  }

  /** Indexes the blocks the index lacks; all of them when it is missing, stale or of another format. */
  private async catchUp(options: IndexOptions): Promise<void> {
    const chain = this.chain;
    const version = await this.store.get('idxMeta', META_KEYS.version);
    const head = await this.rawQueries.head();
    let from = 0n;
    let reason: string | undefined = options.reindex ? 'requested' : undefined;
    if (!reason && (!version || readU32(version) !== INDEX_VERSION)) reason = head ? 'format changed' : 'missing';
    if (!reason && head) {
      const at = head.number <= chain.head.number ? await chain.store.getBlock(head.number) : undefined;
      if (!at || !equalsBytes(at.hash, head.hash)) reason = 'does not match the chain';
      else from = head.number + 1n;
    } else if (!reason) reason = 'missing';
    if (reason) {
      await this.store.clearAll();
      from = 0n;
    }
    const numbers = await this.storedBlocksFrom(from);
    if (numbers.length === 0) return;
    const why = reason ? `index ${reason}` : `index behind by ${numbers.length} blocks`;
    // A new chain has only its genesis to index: nothing worth telling.
    const quiet = numbers.length === 1 && numbers[0] === chain.genesis.number;
    const progress = options.progress ?? (quiet ? silentProgress : defaultProgress(this.logger));
    progress.start(`rebuilding the explorer index (${why})`, numbers.length);
    let done = 0;
    for (let i = 0; i < numbers.length; i += REBUILD_BATCH) {
      this.writer.begin();
      if (i === 0 && from === 0n) this.writer.put('idxMeta', META_KEYS.version, u32(INDEX_VERSION));
      const scope = new BlockScope(this.writer);
      let last: StoredBlock | undefined;
      for (const n of numbers.slice(i, i + REBUILD_BATCH)) {
        last = (await this.indexStored(scope, n)) ?? last;
        done++;
      }
      if (last) endIndexBatch(scope, last);
      await this.store.writeNow(this.writer.take());
      this.writer.committed();
      progress.update(done);
    }
    progress.done();
  }

  /** Numbers of the blocks in storage from `from` on (reserved empty ranges are not stored, and hold nothing to index). */
  private async storedBlocksFrom(from: bigint): Promise<bigint[]> {
    const head = this.chain.head.number;
    return (await this.chain.store.storedNumbersFrom(from)).filter((n) => n <= head);
  }

  /** Indexes stored block `n` into `scope`; answers the block (undefined when it is not stored). */
  private async indexStored(scope: BlockScope, n: bigint): Promise<StoredBlock | undefined> {
    const chain = this.chain;
    const sb = await chain.store.getBlock(n);
    if (!sb) return undefined;
    const sm = await chain.stateManagerFor(sb);
    const reader = new BlockStateReader(chain, sb, async () => sm);
    // The chain's first block: block 0, or a fork's block N (its dev accounts are funded there).
    const genesis = n === chain.genesis.number ? this.genesisAllocation() : undefined;
    await indexBlock(scope, { sb, rows: await this.rowsOf(sb), reader, common: chain.common, genesis });
    return sb;
  }

  /** A block's rows, with its internal transactions when its call frames were kept (never replayed here). */
  private async rowsOf(sb: StoredBlock): Promise<BlockRows> {
    return blockRows(sb, await this.chain.store.getCallFrames(sb));
  }

  /** Accounts and contracts the genesis block allocates: a geth genesis file's, or the dev chain's. */
  private genesisAllocation(): { accounts: Uint8Array[]; contracts: Uint8Array[] } {
    const chain = this.chain;
    const accounts = chain.accounts.map((a) => a.address.bytes);
    const file = chain.settings.genesis;
    if (file) {
      const alloc = Object.entries(file.alloc);
      const bytes = (a: string) => createAddressFromString(a.startsWith('0x') ? a : `0x${a}`).bytes;
      const withCode = alloc.filter(([, acct]) => acct.code !== undefined && acct.code !== '0x' && acct.code !== '');
      return { accounts: [...accounts, ...alloc.map(([a]) => bytes(a))], contracts: withCode.map(([a]) => bytes(a)) };
    }
    const contracts = SYSTEM_CONTRACTS.filter((c) => chain.common.gteHardfork(c.fork)).map(
      (c) => createAddressFromString(c.address).bytes,
    );
    return { accounts, contracts };
  }
}

/**
 * `queries` whose every method first waits for the index to reach the chain's head, so a client
 * that sent a transaction and then asks the explorer sees it.
 */
function syncedQueries(raw: IndexQueries, sync: () => Promise<void>): IndexQueries {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(raw, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      let w = wrapped.get(prop);
      if (!w) {
        const fn = v as (...args: unknown[]) => unknown;
        w = async (...args: unknown[]) => {
          await sync();
          return fn.apply(target, args);
        };
        wrapped.set(prop, w);
      }
      return w;
    },
  });
}
