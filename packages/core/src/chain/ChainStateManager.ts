import { RLP } from '@ethereumjs/rlp';
import { type Caches, MerkleStateManager, type MerkleStateManagerOpts } from '@ethereumjs/statemanager';
import { keccak_256 } from '@noble/hashes/sha3.js';
import {
  Account,
  Address,
  EthereumJSErrorWithoutCode,
  concatBytes,
  createAccountFromRLP,
  unpadBytes,
} from '@ethereumjs/util';
import { unprefixedHexToBytes } from '../evm/fastBytes.js';
import { stateManagerKeccak, storageTrieOf } from '../evm/internals.js';
import { copyAccount } from './AccountObjectCache.js';
import type { SlotWriteGroup } from './SlotCache.js';
import { StateCaches } from './StateCaches.js';
import { byteKey } from './stateCacheKeys.js';
import { CowTrie } from '../trie/CowTrie.js';
import { SETTLED } from '../util/settled.js';

/** Bounds of the head state's caches (see `boundCaches`). */
export const MAX_CACHED_ACCOUNTS = 100_000;
/** Past this many, the cache of address hashes for storage-trie lookups is emptied. */
const MAX_HASHED_ADDRESSES = 4_096;
export const MAX_CACHED_SLOT_PUTS = 200_000;

/** MerkleStateManager's options, with the caches as StateCaches (@ethereumjs Caches give their sizes). */
export type ChainStateManagerOpts = Omit<MerkleStateManagerOpts, 'caches'> & { caches?: Caches | StateCaches };

/** RLP of the empty byte string: what a slot absent from the trie reads as. */
const RLP_EMPTY = Uint8Array.of(0x80);

/** The prefix of code keys in the state database (MerkleStateManager's CODEHASH_PREFIX, 'c'). */
const CODE_PREFIX = Uint8Array.of(0x63);

/**
 * The head's MerkleStateManager, with caches that cost less and writes that hash less.
 *
 * - Its caches are StateCaches (a stock `Caches` given is taken as the sizes to use): accounts
 *   kept decoded (the stock cache encodes and decodes RLP on every put and get, and the EVM
 *   puts every account a transaction touches), plain Maps keyed by native byte slices, and
 *   nothing read is written back by a flush. getAccount, putAccount and getCode are the stock
 *   ones over those caches.
 * - An account read while the trie holds what it held before every open checkpoint is kept
 *   when those checkpoints are reverted (the stock cache drops it): an eth_call, run in a
 *   checkpoint that is always reverted, finds the accounts the previous call read.
 * - Its flush writes each account's storage slots together and roots its storage trie once.
 *   The stock flush writes slot by slot and recomputes the account's storage root after every
 *   slot (each root hashes the changed path up to the top), so a block touching n slots of one
 *   contract hashed its upper nodes n times — every block does, for the EIP-4788 beacon-root
 *   contract's two slots alone. Same tries, same roots, fewer hashes.
 */
export class ChainStateManager extends MerkleStateManager {
  /** Past these, the caches are emptied after a flush (see `boundCaches`). */
  cacheBounds = { accounts: MAX_CACHED_ACCOUNTS, slotPuts: MAX_CACHED_SLOT_PUTS };
  /** The same object as `_caches`, typed as what it is. */
  private readonly stateCaches?: StateCaches;
  /**
   * True once the trie was written (a flush, a new root) inside an open checkpoint, until no
   * checkpoint is open: what it answers then may be reverted, so accounts read from it are
   * journaled like any write.
   */
  private trieAheadOfCheckpoints = false;

  constructor(opts: ChainStateManagerOpts = {}) {
    const caches = opts.caches === undefined ? undefined : StateCaches.from(opts.caches);
    super({ ...opts, caches: caches as unknown as Caches | undefined });
    this.stateCaches = caches;
  }

  /** Keccak-256 of addresses whose storage trie was asked for, keyed by `byteKey` (bounded). */
  private readonly addressHashes = new Map<string, Uint8Array>();
  /**
   * The storage tries `_getStorageTrie` answered, by `byteKey` of the address, valid for the
   * `_storageTries` object they were found in: the stock method keys that object by the hex of the
   * address's hash (a 64-character string made and hashed for a dictionary lookup on every call,
   * two per automined block for the EIP-4788 and EIP-2935 rings), and replaces it on revert and
   * setStateRoot, which forgets every trie in it. The same trie objects, found by a Map lookup.
   */
  private readonly storageTries = new Map<string, ReturnType<MerkleStateManager['_getAccountTrie']>>();
  private storageTriesFor: object | undefined;

  /**
   * The stock `_getStorageTrie`, given the address's hash from `addressHashes`: it hashed the
   * address on every call, and every slot read missing the cache asks (a revert also empties
   * the stock method's own trie cache, so each eth_call asked again).
   */
  protected override _getStorageTrie(
    addressOrHash: Address | { bytes: Uint8Array } | Uint8Array,
    rootAccount?: Account,
  ): ReturnType<MerkleStateManager['_getAccountTrie']> {
    if (addressOrHash instanceof Uint8Array) return super._getStorageTrie(addressOrHash, rootAccount);
    const bytes = addressOrHash.bytes;
    const key = byteKey(bytes);
    if (this._storageTries !== this.storageTriesFor) {
      this.storageTries.clear();
      this.storageTriesFor = this._storageTries;
    }
    const known = this.storageTries.get(key);
    if (known !== undefined) return known;
    let hash = this.addressHashes.get(key);
    if (hash === undefined) {
      const computed = stateManagerKeccak(this)(bytes);
      if (this.addressHashes.size >= MAX_HASHED_ADDRESSES) this.addressHashes.clear();
      this.addressHashes.set(key, computed);
      hash = computed;
    }
    const trie = super._getStorageTrie(hash, rootAccount);
    if (this.storageTries.size >= MAX_HASHED_ADDRESSES) this.storageTries.clear();
    this.storageTries.set(key, trie);
    return trie;
  }

  /**
   * getAccount answered from the cache without a promise: the account (a copy), null when it is
   * known not to exist, undefined when it is not cached (then await getAccount). The automine
   * path asks for the sender's account twice per transaction (validation, the pool's nonces),
   * each an async call and an await for an account that is in memory.
   */
  accountNow(address: Address): Account | null | undefined {
    // A subclass that reads more than the cache (a fork's upstream) answers only through getAccount.
    if (this.getAccount !== ChainStateManager.prototype.getAccount) return undefined;
    return this.stateCaches?.account?.peek(address);
  }

  /**
   * getCode answered without a promise: from the code cache, or empty for an account that is not
   * a contract (as getCode answers it) when the account is cached or its trie path is in memory
   * (readAccountNow); undefined otherwise (then await getCode). A value transfer's recipient is
   * often new: getCode read it from the trie through four awaited calls.
   */
  codeNow(address: Address): Uint8Array | undefined {
    if (this.getCode !== ChainStateManager.prototype.getCode) return undefined;
    const cached = this.stateCaches?.code?.peek(address);
    if (cached !== undefined) return cached.code ?? new Uint8Array(0);
    const account = this.readAccountNow(address);
    if (account === undefined) return undefined;
    return account === null || !account.isContract() ? new Uint8Array(0) : undefined;
  }

  /**
   * accountNow, and on a cache miss the trie read getAccount does (and its cache fill) when the
   * path is in memory (CowTrie.getNow); undefined when a node has to be read.
   */
  readAccountNow(address: Address): Account | null | undefined {
    const known = this.accountNow(address);
    if (known !== undefined) return known;
    const cache = this.stateCaches?.account;
    const trie = this._trie as unknown;
    if (cache === undefined || !(trie instanceof CowTrie) || this.getAccount !== ChainStateManager.prototype.getAccount)
      return undefined;
    const rlp = trie.getNow(address.bytes);
    if (rlp === undefined) return undefined;
    cache.read(address); // counted as getAccount counts its miss
    const account = rlp !== null ? createAccountFromRLP(rlp) : undefined;
    // As getAccount: nothing was cached for the address, so it is not written in any open checkpoint.
    cache.fill(address, account, this._checkpointCount > 0 && this.trieAheadOfCheckpoints);
    return account ? copyAccount(account) : null;
  }

  /**
   * Whether a storage slot holds nothing (true) or a value (false), answered without a promise
   * from the storage cache or the account's storage trie when its path is in memory; undefined
   * when a node has to be read (then await getStorage). Nothing is cached by asking.
   */
  slotEmptyNow(address: Address, key: Uint8Array): boolean | undefined {
    const cache = this.stateCaches?.storage;
    if (cache === undefined || this.getStorage !== ChainStateManager.prototype.getStorage) return undefined;
    // The cache holds RLP: 0x80 alone is the empty value. Undefined is "not cached" (or a slot
    // cleared in this block, which the trie may still hold: then the answer is false, safely).
    const cached = cache.get(address, key);
    if (cached !== undefined) return cached.length === 1 && cached[0] === 0x80;
    const account = this.accountNow(address);
    if (account === undefined) return undefined;
    if (account === null) return true;
    const trie = storageTrieOf(this, address, account);
    if (!(trie instanceof CowTrie)) return undefined;
    const value = trie.getNow(key);
    return value === undefined ? undefined : value === null;
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const cache = this.stateCaches?.account;
    if (cache === undefined) return super.getAccount(address);
    const cached = cache.read(address);
    if (cached !== undefined) return cached ?? undefined;
    const rlp = await this._trie.get(address.bytes);
    // A write while the trie was read wins over what was read.
    const written = cache.read(address);
    if (written !== undefined) return written ?? undefined;
    const account = rlp !== null ? createAccountFromRLP(rlp) : undefined;
    // Nothing was cached for the address: the account is not written in any open checkpoint.
    cache.fill(address, account, this._checkpointCount > 0 && this.trieAheadOfCheckpoints);
    return account && copyAccount(account);
  }

  /**
   * Not async: the write is the cache's, done before returning, and the answer is one settled
   * promise shared by every call (the EVM's journal puts ~6 accounts per transfer, each an async
   * function's new promise). A failure still comes back as a rejected promise.
   */
  override putAccount(address: Address, account: Account | undefined): Promise<void> {
    const cache = this.stateCaches?.account;
    if (cache === undefined) return super.putAccount(address, account);
    try {
      if (account === undefined) cache.del(address);
      else cache.put(address, account);
    } catch (e) {
      return Promise.reject(e);
    }
    return DONE;
  }

  /** The stock getCode, with code read from the database cached as read (a flush does not rewrite it). */
  override async getCode(address: Address): Promise<Uint8Array> {
    const cache = this.stateCaches?.code;
    if (cache === undefined) return super.getCode(address);
    const cached = cache.get(address);
    if (cached !== undefined) return cached.code ?? new Uint8Array(0);
    const account = await this.getAccount(address);
    if (!account?.isContract()) return new Uint8Array(0);
    const key = this._prefixCodeHashes ? concatBytes(CODE_PREFIX, account.codeHash) : account.codeHash;
    const code = (await this._trie.database().get(key)) ?? new Uint8Array(0);
    const written = cache.get(address);
    if (written !== undefined) return written.code ?? new Uint8Array(0);
    cache.fill(address, code, !this.readsOutliveCheckpoints(address));
    return code;
  }

  /**
   * The stock getStorage, with a slot read from the trie kept across the revert of open
   * checkpoints when that is safe (`readsOutliveCheckpoints`): an eth_call finds the slots the
   * previous one read. Values are cached RLP-encoded, as @ethereumjs's cache holds them.
   */
  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const cache = this.stateCaches?.storage;
    if (cache === undefined) return super.getStorage(address, key);
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    const cached = cache.get(address, key);
    if (cached !== undefined) return RLP.decode(cached) as Uint8Array;
    const account = await this.getAccount(address);
    if (!account) return new Uint8Array();
    const value = (await this._getStorageTrie(address, account).get(key)) ?? RLP_EMPTY;
    const written = cache.get(address, key);
    if (written !== undefined) return RLP.decode(written) as Uint8Array;
    cache.fill(address, key, value, !this.readsOutliveCheckpoints(address));
    return RLP.decode(value) as Uint8Array;
  }

  /**
   * Whether what the trie answers now for the address's code and storage is what it held before
   * every open checkpoint, so that a value read may stay cached when they are reverted: no
   * checkpoint is open, or the trie was not written inside them and neither was the account
   * (its code hash and storage root; clearStorage writes it too).
   */
  private readsOutliveCheckpoints(address: Address): boolean {
    if (this._checkpointCount === 0) return true;
    if (this.trieAheadOfCheckpoints) return false;
    return !(this.stateCaches?.account?.changedInCheckpoint(address) ?? true);
  }

  override async setStateRoot(stateRoot: Uint8Array, clearCache = true): Promise<void> {
    await super.setStateRoot(stateRoot, clearCache);
    if (this._checkpointCount > 0) this.trieAheadOfCheckpoints = true;
  }

  /**
   * A slot write goes to the storage cache only. The stock putStorage also wrote it through to
   * the storage trie and re-rooted it at once (`cache.put(...) ?? write`: put returns undefined),
   * so every SSTORE hashed the account's storage path and re-serialized the account, and the
   * flush at the end of the block did it all again. The flush alone writes the trie.
   */
  override putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const cache = this.stateCaches?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    // The account is cached in the common case (the EVM or the block's system writes just read
    // it): the write is done without a copy of the account or a promise of its own (the shared
    // settled one, as putAccount); otherwise the account is read first.
    if (key.length === 32 && value.length <= 32 && this.stateCaches?.account?.holdsAccount(address)) {
      try {
        cache.put(address, key, RLP.encode(unpaddedValue(value)));
      } catch (e) {
        return Promise.reject(e);
      }
      return DONE;
    }
    return this.putStorageRead(address, key, value);
  }

  /** putStorage of a slot whose account is not cached: read (and so cached) first. */
  private async putStorageRead(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const cache = this.stateCaches?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    if ((await this.getAccount(address)) === undefined) throw new Error('putStorage() called on non-existing account');
    cache.put(address, key, RLP.encode(unpaddedValue(value)));
  }

  /**
   * The stock commit, with the trie's commit (a pop of its saved roots) made without a promise:
   * the journal commits the state manager's checkpoints ~4 times per transaction, each awaiting
   * the trie's async commit for nothing.
   */
  override commit(): Promise<void> {
    const trie = this._trie as unknown;
    if (!(trie instanceof CowTrie) || this.DEBUG) return super.commit();
    try {
      trie.commitNow();
      this._caches?.commit();
    } catch (e) {
      return Promise.reject(e);
    }
    this._checkpointCount--;
    // Not async unless the last checkpoint closes (a flush): an inner commit (runCall's, and
    // runTx's within a block) answers with the shared settled promise.
    return this._checkpointCount === 0 ? this.flushCommitted() : DONE;
  }

  /** The end of the stock commit when it closes the last checkpoint. */
  private async flushCommitted(): Promise<void> {
    await this.flush();
    this.originalStorageCache.clear();
  }

  /**
   * The stock checkpoint (the trie's and the caches' checkpoints, then the count), which awaits
   * nothing, without an async function's promise: the shared settled one (a failure still a
   * rejected promise). The journal checkpoints ~2 times per transaction.
   */
  override checkpoint(): Promise<void> {
    try {
      this._trie.checkpoint();
      this._caches?.checkpoint();
    } catch (e) {
      return Promise.reject(e);
    }
    this._checkpointCount++;
    return DONE;
  }

  /**
   * The stock flush, step for step (code, then storage, then accounts: the first two change
   * accounts), over StateCaches: storage grouped per account (`writeStorage`), accounts written
   * by their address bytes and encoded here, what was only read not written back.
   */
  override async flush(): Promise<void> {
    const caches = this.stateCaches;
    if (caches === undefined) return super.flush();
    // A flush with no checkpoint open (commit and revert of the last one end with one) leaves
    // the trie holding everything below any checkpoint opened later.
    this.trieAheadOfCheckpoints = this._checkpointCount > 0;
    // Called only with code to write (a deployment): called and awaited by every flush, this async
    // function was one more promise per block, and hot enough for TurboFan (~4 ms) for an empty list.
    const codes = caches.code?.takeWrites();
    if (codes !== undefined && codes.length > 0) await this.writeCodes(codes);
    const slots = caches.storage?.takeWriteGroups();
    if (slots && slots.length > 0) await this.writeStorage(slots);
    const trie = this._trie as unknown;
    // Indexed, not `for (const [key, rlp] of …)`: array destructuring is the iterator protocol per
    // element in bytecode (with its closing try/finally), which V8 runs and then compiles.
    const accounts = caches.account?.takeWrites() ?? [];
    for (let i = 0; i < accounts.length; i++) {
      const key = accounts[i][0];
      const rlp = accounts[i][1];
      if (trie instanceof CowTrie) {
        // Awaited only when a node had to be read (putNow).
        const reading = rlp === undefined ? trie.delNow(key) : trie.putNow(key, rlp);
        if (reading !== undefined) await reading;
      } else if (rlp === undefined) await this._trie.del(key);
      else await this._trie.put(key, rlp);
    }
    this.boundCaches();
  }

  /**
   * The flush's code step, for a block that wrote code (a deployment). Its own async function:
   * V8 does not inline an async function that can suspend (this one awaits), so a fresh node's
   * first deployment compiles this one, and flush (optimised on value transfers) keeps its code.
   */
  private async writeCodes(writes: [Address, Uint8Array | undefined][]): Promise<void> {
    for (const [address, code] of writes) {
      if (code !== undefined) await this.writeCode(address, code);
    }
  }

  /** Stores code under its hash and points the account at it (the stock flush's code step). */
  private async writeCode(address: Address, code: Uint8Array): Promise<void> {
    const codeHash = (this.common.customCrypto.keccak256 ?? keccak_256)(code);
    const key = this._prefixCodeHashes ? concatBytes(CODE_PREFIX, codeHash) : codeHash;
    await this._getCodeDB().put(key, code);
    if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account());
    await this.modifyAccountFields(address, { codeHash });
  }

  /**
   * The account and storage caches are @ethereumjs ordered maps, which ignore their size
   * setting: they kept every account and slot the head ever touched. Once everything is
   * flushed outside any checkpoint (nothing in them is newer than the trie), they are emptied
   * past a bound, and what is read next comes from the trie. Subclasses (a fork's state, whose
   * cache shadows the upstream) keep theirs.
   */
  private boundCaches(): void {
    const caches = this.stateCaches;
    if (!caches || this._checkpointCount > 0 || this.constructor !== ChainStateManager) return;
    const accounts = caches.account?.size() ?? 0;
    // Slot puts since the last emptying (reads filling the cache included): a bound on slots held.
    const slotPuts = caches.storage?.writes ?? 0;
    if (accounts <= this.cacheBounds.accounts && slotPuts <= this.cacheBounds.slotPuts) return;
    caches.clear();
    caches.storage?.stats(true);
  }

  /** The flush's storage step: each account's slots written to its storage trie, then its root to the account. */
  private async writeStorage(groups: SlotWriteGroup[]): Promise<void> {
    // The account is read from and written to the cache without a promise where getAccount and
    // putAccount are this class's (two awaits per written account, two such accounts per dev block).
    const accountCache =
      this.putAccount === ChainStateManager.prototype.putAccount ? this.stateCaches?.account : undefined;
    for (let g = 0; g < groups.length; g++) {
      const { addressHex, slots, values } = groups[g];
      const address = new Address(unprefixedHexToBytes(addressHex));
      const cached = this.accountNow(address);
      const account = cached === undefined ? await this.getAccount(address) : cached;
      if (!account) continue;
      const trie = storageTrieOf(this, address, account);
      for (let i = 0; i < slots.length; i++) {
        const key = slots[i];
        const value = values[i];
        // The cache holds the RLP of the unpadded value: 0x80 alone (the empty string) means the
        // slot is cleared, as does no value; any other RLP decodes to a non-empty value.
        const cleared = value === undefined || (value.length === 1 && value[0] === 0x80);
        if (trie instanceof CowTrie) {
          const reading = cleared ? trie.delNow(key) : trie.putNow(key, value);
          if (reading !== undefined) await reading;
        } else if (cleared) await trie.del(key);
        else await trie.put(key, value);
      }
      // Stock's _modifyContractStorage also stores the trie under the hex of the address itself,
      // a key nothing reads (_getStorageTrie looks tries up by the address's hash): not repeated.
      account.storageRoot = trie.root();
      if (accountCache !== undefined) accountCache.put(address, account);
      else await this.putAccount(address, account);
    }
  }
}

/** The answer of a write done synchronously: one settled promise, shared (see SETTLED). */
const DONE: Promise<void> = SETTLED;

/**
 * @ethereumjs/util's unpadBytes (the value without its leading zero bytes; the value itself when
 * it has none) in one pass: its stripZeros slices the array once per leading zero and turns each
 * first byte into a string to compare it with '0' (a 32-byte zero word, as the EIP-4788 root
 * of every dev block, made 32 arrays). A view is enough: RLP.encode copies it. Anything but
 * bytes goes to unpadBytes, which throws its error.
 */
function unpaddedValue(value: Uint8Array): Uint8Array {
  if (!(value instanceof Uint8Array)) return unpadBytes(value);
  let i = 0;
  while (i < value.length && value[i] === 0) i++;
  return i === 0 ? value : value.subarray(i);
}

/** `sm.accountNow` for any state manager: undefined (await getAccount) where it is not a ChainStateManager. */
export function accountNow(sm: unknown, address: Address): Account | null | undefined {
  return sm instanceof ChainStateManager ? sm.accountNow(address) : undefined;
}

/** `sm.codeNow` for any state manager: undefined (await getCode) where it is not a ChainStateManager. */
export function codeNow(sm: unknown, address: Address): Uint8Array | undefined {
  return sm instanceof ChainStateManager ? sm.codeNow(address) : undefined;
}
