import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { type Address, ValueEncoding, bytesToHex, equalsBytes } from '@ethereumjs/util';
import { type VM, createVM } from '@ethereumjs/vm';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import type { EventBus } from '../events/EventBus.js';
import type { Logger } from '../util/logger.js';
import type { ChainSettings } from './ChainSettings.js';
import { ChainStore, type StoreOp } from '../storage/ChainStore.js';
import { META } from '../storage/keys.js';
import { readU64, u64 } from '../index/codec.js';
import { StateNodeDb } from '../storage/StateNodeDb.js';
import type { StoragePort } from '../storage/StoragePort.js';
import { type DevAccount, deriveAccounts } from './accounts.js';
import { createDevCommon } from './chainCommon.js';
import { buildGenesis } from './genesis.js';
import { alignHardfork, buildGethGenesis, createGethCommon } from './gethGenesis.js';
import type { StoredBlock, TxLocation } from './types.js';
import { storedBlock } from './storedBlock.js';
import { CowTrie, TrieContext } from '../trie/CowTrie.js';
import { ChainStateManager } from './ChainStateManager.js';
import { StateCaches } from './StateCaches.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { initForkChain } from '../fork/forkChain.js';
import { ForkStateManager } from '../fork/ForkStateManager.js';
import { FORK_META, type ForkContext, readForkRecord } from '../fork/openFork.js';

function headPointer(sb: StoredBlock): Uint8Array {
  const out = new Uint8Array(40);
  out.set(u64(sb.number), 0);
  out.set(sb.hash, 8);
  return out;
}

/**
 * Blocks that exist without being stored: the empty ranges `hardhat_mine` reserves
 * (dev/ReservedBlocks.ts). The chain asks it for numbers and hashes it does not store.
 */
export interface VirtualBlocks {
  /** The block at `n` when `n` lies in a reserved range. */
  get(n: bigint): StoredBlock | undefined;
  /** The number of a reserved block's hash. */
  numberOf(hash: Uint8Array): bigint | undefined;
  /** The highest number at or below `n` outside every reserved range (revertTo walks stored blocks only). */
  storedAtOrBelow(n: bigint): bigint;
}

export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized';
export type BlockRef =
  | { kind: 'tag'; tag: BlockTag }
  | { kind: 'number'; number: bigint }
  | { kind: 'hash'; hash: Uint8Array };

/**
 * The chain: genesis, head, blocks, receipts and state. Every mutation and every read of the
 * head state runs through `exclusive`, one at a time, so a reader never sees a half-built block.
 */
export class ChainService {
  readonly common: Common;
  readonly store: ChainStore;
  readonly stateDb: StateNodeDb;
  readonly accounts: DevAccount[];
  /** Decoded trie nodes and the node database, shared by every state view of this chain. */
  readonly trieContext: TrieContext;
  /**
   * The same database with a small cache of its own, for short-lived views of past states (the
   * index reading the state each block left): their paths are new every block, and in the
   * shared cache they would crowd out the head's nodes and hold memory for nothing.
   */
  readonly viewContext: TrieContext;
  vm!: VM;
  head!: StoredBlock;
  genesis!: StoredBlock;
  /** First block stored with a log context (see ChainStore.logContexts). */
  logContextsFrom = 0n;
  /** State root of the head; differs from head.block.header.stateRoot after dev state edits. */
  headStateRoot!: Uint8Array;
  private tail: Promise<unknown> = Promise.resolve();
  /** Extra writes for each committed block (the explorer index), joined to the block's batch. */
  private readonly commitHooks: ((sb: StoredBlock) => StoreOp[] | Promise<StoreOp[]>)[] = [];
  /** Told of each block once it is written, before any event listener (which may throw). */
  private readonly committedHooks: ((sb: StoredBlock) => void | Promise<void>)[] = [];
  /** Extra writes undoing a removed block, joined to the revert's batch. */
  private readonly removeHooks: ((sb: StoredBlock) => StoreOp[] | Promise<StoreOp[]>)[] = [];
  private closed = false;
  private readonly closeHooks: (() => Promise<void>)[] = [];
  private virtual?: VirtualBlocks;
  /**
   * The upstream this chain forks (docs/forking.md): its first block is the upstream's block N,
   * and state it does not hold is read from there. Undefined for a chain of its own.
   */
  fork?: ForkContext;

  private constructor(
    /** The chain's options (its slice of the kernel's resolved options). */
    readonly settings: ChainSettings,
    readonly storage: StoragePort,
    readonly events: EventBus,
    readonly logger: Logger,
    fork?: ForkContext,
  ) {
    this.fork = fork;
    this.common = settings.genesis
      ? createGethCommon(settings.genesis)
      : createDevCommon(settings.chainId, settings.hardfork);
    this.store = new ChainStore(storage, this.common);
    this.stateDb = new StateNodeDb(this.store);
    this.trieContext = new TrieContext(this.stateDb, this.common.customCrypto.keccak256 ?? keccak_256, {
      useKeyHashing: true,
      common: this.common,
    });
    this.viewContext = new TrieContext(
      this.stateDb,
      this.common.customCrypto.keccak256 ?? keccak_256,
      { useKeyHashing: true, common: this.common },
      true,
      4_096,
    );
    this.accounts = deriveAccounts(settings.mnemonic, settings.accounts);
  }

  static async open(
    settings: ChainSettings,
    storage: StoragePort,
    events: EventBus,
    logger: Logger,
    fork?: ForkContext,
  ): Promise<ChainService> {
    const chain = new ChainService(settings, storage, events, logger, fork);
    try {
      await chain.init();
    } catch (e) {
      await fork?.close().catch(() => undefined);
      throw e;
    }
    return chain;
  }

  /**
   * A state manager over this chain's trie nodes. By default its trie is a CowTrie (see
   * trie/CowTrie.ts: the state root of a block costs a fraction of @ethereumjs/mpt's);
   * `{ mpt: true }` gives the plain @ethereumjs/mpt one, for proofs and ordered walks.
   */
  newStateManager(opts: { mpt?: boolean; view?: boolean } = {}): MerkleStateManager {
    const trie = opts.mpt
      ? new MerklePatriciaTrie({
          db: this.stateDb,
          useKeyHashing: true,
          valueEncoding: ValueEncoding.Bytes,
          common: this.common,
          cacheSize: 0,
        })
      : (new CowTrie(opts.view ? this.viewContext : this.trieContext) as unknown as MerklePatriciaTrie);
    // A view reads a handful of accounts once: caches sized for the head would only hold garbage.
    const caches = opts.view
      ? new StateCaches({ account: { size: 256 }, storage: { size: 256 }, code: { size: 16 } })
      : new StateCaches({ account: { size: 100_000 }, storage: { size: 100_000 }, code: { size: 5_000 } });
    if (this.fork) return new ForkStateManager({ common: this.common, trie, caches }, this.fork.state);
    return new ChainStateManager({ common: this.common, trie, caches });
  }

  private async init(): Promise<void> {
    if (this.fork) await initForkChain(this, this.fork);
    else await this.initOwnGenesis();
    // A geth-genesis chain changes rules with the head (one Common serves VM, EVM and pool).
    if (this.settings.genesis) alignHardfork(this.common, this.head.number, this.head.block.header.timestamp);
    const marker = await this.store.getMeta(META.logCtxFrom);
    if (marker === undefined) {
      // Blocks before this one were written without log contexts: eth_getLogs reads them whole.
      this.logContextsFrom = this.head.number === this.genesis.number ? this.genesis.number : this.head.number + 1n;
      await this.store.write([
        { type: 'put', sublevel: this.store.meta, key: META.logCtxFrom, value: u64(this.logContextsFrom) },
      ]);
    } else this.logContextsFrom = readU64(marker);
    const stateManager = this.newStateManager();
    await stateManager.setStateRoot(this.headStateRoot);
    this.vm = await this.createVmOn(stateManager);
  }

  /** Opens or creates the chain's own genesis (the dev allocation, or a geth genesis file's). */
  private async initOwnGenesis(): Promise<void> {
    const forked = await readForkRecord(this.storage);
    if (forked)
      throw new AshlarError(
        ErrorCodes.GENESIS_MISMATCH,
        `storage at ${this.storage.location} holds a fork of chain ${forked.upstreamChainId} at block ${forked.number}: open it with the fork options (--fork-url) or use another --db path`,
      );
    const sm = this.newStateManager();
    const genesisBlock = this.settings.genesis
      ? await buildGethGenesis(this.common, sm, this.settings.genesis)
      : await buildGenesis(this.common, sm, this.settings, this.accounts);
    const stored = await this.store.getMeta(META.genesis);
    const head = await this.store.getHead();
    if (stored === undefined || head === undefined) {
      // A new chain: write genesis state and block in one batch.
      if (this.storage.kind === 'memory') this.stateDb.keepInMemory();
      const sb = storedBlock({
        block: genesisBlock,
        number: 0n,
        hash: genesisBlock.hash(),
        senders: [],
        receipts: [],
        totalDifficulty: genesisBlock.header.difficulty,
        size: genesisBlock.serialize().length,
      });
      const ops: StoreOp[] = [
        ...this.stateDb.drain(),
        ...this.store.blockOps(sb, genesisBlock.header.stateRoot),
        { type: 'put', sublevel: this.store.meta, key: META.genesis, value: this.genesisRecord(sb.hash) },
      ];
      await this.store.write(ops);
      this.head = sb;
      this.genesis = sb;
      this.headStateRoot = genesisBlock.header.stateRoot;
    } else {
      this.stateDb.discard();
      const storedChainId = BigInt(bytesToHex(stored.subarray(32)));
      const storedHash = stored.subarray(0, 32);
      const g = await this.store.getBlock(0n);
      if (!g)
        throw new AshlarError(
          ErrorCodes.STORAGE,
          `storage at ${this.storage.location} has a head but no genesis block`,
        );
      const genesisTimestampMatters = this.settings.genesisTimestamp !== undefined;
      const sameState = equalsBytes(g.block.header.stateRoot, genesisBlock.header.stateRoot);
      const sameRules =
        g.block.header.gasLimit === genesisBlock.header.gasLimit &&
        g.block.header.baseFeePerGas === genesisBlock.header.baseFeePerGas;
      if (storedChainId !== this.settings.chainId) {
        throw new AshlarError(
          ErrorCodes.GENESIS_MISMATCH,
          `storage at ${this.storage.location} holds chain id ${storedChainId}, not ${this.settings.chainId}; use another --db path or the same chain options`,
        );
      }
      if (
        !sameState ||
        !sameRules ||
        (genesisTimestampMatters && g.block.header.timestamp !== genesisBlock.header.timestamp) ||
        !equalsBytes(g.hash, storedHash)
      ) {
        throw new AshlarError(
          ErrorCodes.GENESIS_MISMATCH,
          `storage at ${this.storage.location} holds a chain with another genesis (${bytesToHex(storedHash)}): accounts, balance, mnemonic, hardfork, gas limit or base fee differ from this node's options`,
        );
      }
      const h = await this.store.getBlock(head.number);
      if (!h)
        throw new AshlarError(
          ErrorCodes.STORAGE,
          `storage at ${this.storage.location} is missing its head block ${head.number}`,
        );
      this.genesis = g;
      this.head = h;
      this.headStateRoot = (await this.store.getMeta(META.headState)) ?? h.block.header.stateRoot;
    }
  }

  /**
   * A VM on the given state manager, with BLOCKHASH answered from this chain's store. Pass a
   * `common` (a copy) to run under other rules than the head's without touching the shared one.
   */
  async createVmOn(stateManager: MerkleStateManager, common: Common = this.common): Promise<VM> {
    const chain = this;
    const blockchain = {
      async getBlock(n: number | bigint) {
        const sb = chain.virtual?.get(BigInt(n)) ?? (await chain.store.getBlock(BigInt(n)));
        if (sb) return sb.block;
        // Below a fork's first block, BLOCKHASH asks the upstream (it reads nothing else of the block).
        const upstream =
          chain.fork && BigInt(n) < chain.fork.number ? await chain.fork.history.hashOf(BigInt(n)) : undefined;
        if (upstream) return { hash: () => upstream } as unknown as Block;
        throw new Error(`block ${n} not found`);
      },
      async putBlock() {},
      shallowCopy() {
        return blockchain;
      },
    };
    return createVM({ common, stateManager, blockchain, activatePrecompiles: true });
  }

  private genesisRecord(hash: Uint8Array): Uint8Array {
    const id = this.settings.chainId.toString(16);
    const idBytes = Uint8Array.from(Buffer.from(id.length % 2 ? `0${id}` : id, 'hex'));
    const out = new Uint8Array(32 + idBytes.length);
    out.set(hash, 0);
    out.set(idBytes, 32);
    return out;
  }

  /** Runs `fn` alone: no other chain mutation or head-state read interleaves with it. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new AshlarError(ErrorCodes.CLOSED, 'the chain is closed'));
    const run = this.tail.then(fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Waits for queued work and the close hooks (which may still queue work), then refuses new work. */
  async close(): Promise<void> {
    await this.tail;
    for (const hook of this.closeHooks.splice(0)) await hook();
    await this.tail;
    this.closed = true;
    await this.fork?.close();
  }

  /** Work to finish before the chain closes (the index catching up with the head). */
  onClose(hook: () => Promise<void>): void {
    this.closeHooks.push(hook);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Serves blocks the store does not hold (dev: hardhat_mine's reserved ranges); one source per chain. */
  setVirtualBlocks(source: VirtualBlocks | undefined): void {
    this.virtual = source;
  }

  getBlock(n: bigint): Promise<StoredBlock | undefined> {
    if (n === this.head.number) return Promise.resolve(this.head);
    if (n > this.head.number || n < 0n) return Promise.resolve(undefined);
    const v = this.virtual?.get(n);
    if (v) return Promise.resolve(v);
    return this.store.getBlock(n);
  }

  async getBlockByHash(hash: Uint8Array): Promise<StoredBlock | undefined> {
    if (equalsBytes(hash, this.head.hash)) return this.head;
    const n = (await this.store.getBlockNumberByHash(hash)) ?? this.virtual?.numberOf(hash);
    if (n === undefined || n > this.head.number) return undefined;
    const sb = await this.getBlock(n);
    return sb && equalsBytes(sb.hash, hash) ? sb : undefined;
  }

  /** Block number a tag stands for; `pending` is the next block (callers decide what it holds). */
  tagNumber(tag: BlockTag): bigint {
    switch (tag) {
      case 'earliest':
        return 0n;
      case 'pending':
        return this.head.number + 1n;
      default:
        // A dev chain has no reorgs: latest is also safe and finalized.
        return this.head.number;
    }
  }

  /** The stored block a reference points at (pending resolves to latest), or undefined. */
  async resolveBlock(ref: BlockRef): Promise<StoredBlock | undefined> {
    if (ref.kind === 'hash') return this.getBlockByHash(ref.hash);
    if (ref.kind === 'number') return this.getBlock(ref.number);
    if (ref.tag === 'pending' || ref.tag === 'latest' || ref.tag === 'safe' || ref.tag === 'finalized')
      return this.head;
    return this.genesis;
  }

  /** Same as resolveBlock, but a missing block is an error (state queries need a block). */
  async requireBlock(ref: BlockRef): Promise<StoredBlock> {
    const sb = await this.resolveBlock(ref);
    if (!sb) {
      const what =
        ref.kind === 'hash' ? `hash ${bytesToHex(ref.hash)}` : ref.kind === 'number' ? `number ${ref.number}` : ref.tag;
      throw new AshlarError(
        ErrorCodes.BLOCK_NOT_FOUND,
        ref.kind === 'hash' ? `header for hash not found` : `header not found (block ${what})`,
      );
    }
    return sb;
  }

  async getTransactionLocation(hash: Uint8Array): Promise<TxLocation | undefined> {
    const loc = await this.store.getTxLocation(hash);
    if (!loc || loc.number > this.head.number) return undefined;
    const block = await this.getBlock(loc.number);
    if (!block) return undefined;
    const tx = block.block.transactions[loc.index];
    if (!tx || !equalsBytes(tx.hash(), hash)) return undefined;
    return { block, index: loc.index };
  }

  /**
   * State at a block: the head's live state manager for the head (call inside `exclusive`),
   * or a fresh view on the trie at the block's root for history.
   */
  async stateManagerFor(sb: StoredBlock): Promise<MerkleStateManager> {
    if (sb === this.head || equalsBytes(sb.hash, this.head.hash)) return this.vm.stateManager as MerkleStateManager;
    const sm = this.newStateManager();
    await sm.setStateRoot(sb.block.header.stateRoot);
    return sm;
  }

  /** A fresh read view of the state at `root` (history; never the head's live state manager). */
  async stateManagerAt(root: Uint8Array): Promise<MerkleStateManager> {
    const sm = this.newStateManager({ view: true });
    await sm.setStateRoot(root);
    return sm;
  }

  isHead(sb: StoredBlock): boolean {
    return sb === this.head || equalsBytes(sb.hash, this.head.hash);
  }

  /** Registers writes that must land in the same batch as each block (an index, say). */
  onCommit(hook: (sb: StoredBlock) => StoreOp[] | Promise<StoreOp[]>): void {
    this.commitHooks.push(hook);
  }

  /**
   * Registers a callback for each block written, run inside the chain lock with the head state
   * still the block's own, before the `block` event.
   */
  onCommitted(hook: (sb: StoredBlock) => void | Promise<void>): void {
    this.committedHooks.push(hook);
  }

  /** Registers writes that undo a block's hook writes when the head moves back past it. */
  onRemove(hook: (sb: StoredBlock) => StoreOp[] | Promise<StoreOp[]>): void {
    this.removeHooks.push(hook);
  }

  /** Writes a built block (its state nodes, block, receipts, lookups, head, hook writes) in one batch. */
  async commitBlock(sb: StoredBlock, extraOps: StoreOp[] = []): Promise<void> {
    const stateRoot = sb.block.header.stateRoot;
    // Appended to the drained nodes' list, not spread into a new one (three arrays per block).
    const ops = this.stateDb.drain();
    const own = this.store.blockOps(sb, stateRoot);
    for (let i = 0; i < own.length; i++) ops.push(own[i]);
    for (let i = 0; i < extraOps.length; i++) ops.push(extraOps[i]);
    // A hook that answers at once (an array, void) is not awaited: no microtask turn per hook and
    // block (the recent-transactions and log indexes are synchronous).
    // Index loops: a for-of is the iterator protocol and an iterator-closing try/finally in
    // bytecode, per loop, in a function V8 interprets then compiles on a fresh node's path.
    const commitHooks = this.commitHooks;
    for (let h = 0; h < commitHooks.length; h++) {
      const got = commitHooks[h](sb);
      const hookOps = Array.isArray(got) ? got : await got;
      for (let i = 0; i < hookOps.length; i++) ops.push(hookOps[i]);
    }
    await this.store.write(ops);
    this.store.remember(sb);
    this.head = sb;
    this.headStateRoot = stateRoot;
    const committedHooks = this.committedHooks;
    for (let h = 0; h < committedHooks.length; h++) {
      const done = committedHooks[h](sb);
      if (done !== undefined) await done;
    }
    this.events.emit('block', sb);
    shedWritten(sb);
  }

  /**
   * Persists a state edit made outside a block (dev methods such as setBalance): the new
   * trie nodes and the head state root go out in one batch.
   */
  async commitStateEdit(): Promise<void> {
    const root = await this.vm.stateManager.getStateRoot();
    const ops: StoreOp[] = [
      ...this.stateDb.drain(),
      { type: 'put', sublevel: this.store.meta, key: META.headState, value: root },
    ];
    await this.store.write(ops);
    this.headStateRoot = root;
  }

  /**
   * Moves the head back to block `n` (snapshot revert, reset): blocks above it, their lookups
   * and hook writes go in one batch; the state returns to `stateRoot` (default: block n's).
   * Costs O(blocks removed), whatever the chain's length. Call inside `exclusive`.
   */
  async revertTo(n: bigint, stateRoot?: Uint8Array): Promise<StoredBlock[]> {
    if (n > this.head.number || n < this.genesis.number)
      throw new AshlarError(ErrorCodes.BLOCK_NOT_FOUND, `cannot revert to block ${n}: head is ${this.head.number}`);
    const target = this.virtual?.get(n) ?? (await this.store.getBlock(n));
    if (!target) throw new AshlarError(ErrorCodes.STORAGE, `block ${n} is missing from storage`);
    const removed: StoredBlock[] = [];
    const ops: StoreOp[] = [];
    const stored = (i: bigint) => this.virtual?.storedAtOrBelow(i) ?? i;
    for (let i = stored(this.head.number); i > n; i = stored(i - 1n)) {
      // Recent blocks are in the cache, and hooks with nothing to undo (the explorer index before
      // it indexed the block) answer at once: no await, no microtask turn, for either.
      const sb = this.store.heldBlock(i) ?? (await this.store.getBlock(i));
      if (!sb) continue;
      removed.push(sb);
      for (const op of this.store.removeBlockOps(sb)) ops.push(op);
      for (const hook of this.removeHooks) {
        const got = hook(sb);
        for (const op of Array.isArray(got) ? got : await got) ops.push(op);
      }
    }
    const root = stateRoot ?? target.block.header.stateRoot;
    this.stateDb.discard();
    ops.push(
      { type: 'put', sublevel: this.store.meta, key: META.head, value: headPointer(target) },
      { type: 'put', sublevel: this.store.meta, key: META.headState, value: root },
    );
    await this.store.write(ops);
    for (const sb of removed) this.store.forget(sb);
    this.head = target;
    this.headStateRoot = root;
    await this.vm.stateManager.setStateRoot(root);
    this.events.emit('revert', { toNumber: n, removed });
    return removed;
  }

  /**
   * hardhat_reset: a new chain in this one's place, on the same storage: a fork of `fork` (another
   * block or upstream), or the node's own genesis when it is undefined. Every block goes, the
   * genesis too, with its hook writes, in one batch; the new genesis is written as a new chain's.
   * The chain id and rules stay the node's. Call inside `exclusive`.
   */
  async reinit(fork: ForkContext | undefined): Promise<void> {
    // What the new genesis reads upstream (the dev accounts), read before anything is removed: an
    // upstream failing now leaves this chain as it was.
    if (fork) await Promise.all(this.accounts.map((a) => fork.state.account(a.address.bytes)));
    await this.revertTo(this.genesis.number);
    const old = this.genesis;
    const ops: StoreOp[] = [...this.store.removeBlockOps(old)];
    for (const hook of this.removeHooks) for (const op of await hook(old)) ops.push(op);
    for (const key of [META.genesis, META.head, META.headState, META.logCtxFrom, FORK_META])
      ops.push({ type: 'del', sublevel: this.store.meta, key });
    await this.store.write(ops);
    this.store.forget(old);
    this.events.emit('revert', { toNumber: old.number - 1n, removed: [old] });
    const previous = this.fork;
    this.fork = fork;
    await this.init();
    for (const hook of this.committedHooks) await hook(this.genesis);
    if (previous && previous !== fork) await previous.close();
  }

  senderOf(sb: StoredBlock, index: number): Address {
    return sb.senders[index];
  }

  blockAt(n: bigint): Promise<StoredBlock | undefined> {
    return this.getBlock(n);
  }

  latestBlock(): Block {
    return this.head.block;
  }
}

/**
 * Once a block is written and every commit hook and `block` listener has read it, its call
 * frames and RLP are in storage and no longer needed on the decoded block, which the block cache
 * keeps for 1,024 blocks: the garbage collector copied them out of the young generation twice
 * (~0.5 KiB of frames and a buffer per one-transfer block) and marked them until the block left
 * the cache. A later reader gets them from storage (ChainStore.getCallFrames, which puts the
 * frames back on a cached block; `sb.rlp ?? sb.block.serialize()`). Written as undefined, not
 * deleted: every StoredBlock keeps one hidden class (see storedBlock.ts).
 */
function shedWritten(sb: StoredBlock): void {
  sb.callFrames = undefined;
  sb.rlp = undefined;
}
