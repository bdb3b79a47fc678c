import { Account, type Address, concatBytes, equalsBytes, unpadBytes, utf8ToBytes } from '@ethereumjs/util';
import { ChainStateManager, type ChainStateManagerOpts } from '../chain/ChainStateManager.js';
import { putCachedStorage } from '../evm/internals.js';
import type { ForkState } from './ForkState.js';

/** The part of the account trie (CowTrie or @ethereumjs/mpt) this layer writes markers into. */
interface MarkerTrie {
  get(key: Uint8Array): Promise<Uint8Array | null>;
  put(key: Uint8Array, value: Uint8Array): Promise<void>;
  database(): { get(k: Uint8Array): Promise<Uint8Array | undefined>; put(k: Uint8Array, v: Uint8Array): Promise<void> };
}

/**
 * Marks an account whose state is wholly local (deleted, or its storage cleared, since the fork):
 * neither it nor its storage falls through to the upstream any more. Kept in the account trie
 * itself, under a 21-byte key no address hashes to, so the mark belongs to the state root: a
 * revert to an older root drops it with the writes it stood for.
 */
export function localMarkKey(address: Uint8Array): Uint8Array {
  return concatBytes(address, LOCAL_MARK_SUFFIX);
}
const LOCAL_MARK_SUFFIX = Uint8Array.of(0x4c);
const LOCAL_MARK = Uint8Array.of(1);

/**
 * A zero written over an upstream slot. Clearing a slot deletes it from the storage trie, which
 * would make it fall through to the upstream's value again; instead the trie keeps this value
 * (the RLP of the one byte 0x00), which reads as zero.
 */
export const ZERO_SHADOW = Uint8Array.of(0);

/** Where a forked chain's trie keeps its fork record (see forkGenesis.ts): no address hashes to it. */
export const FORK_RECORD_KEY = utf8ToBytes('ashlar:fork');

const CODE_PREFIX = utf8ToBytes('c');

/**
 * The state of a forked chain: the local trie (accounts and slots written since the fork) over
 * the upstream's state at the fork block. A read the local trie cannot answer falls through to
 * the upstream (ForkState); a write goes to the local trie and shadows the upstream from then on.
 *
 * - An upstream account read here is put in the account cache, so the state written at the end
 *   of a block holds it (materialised with the upstream's nonce, balance and code hash, and an
 *   empty storage root: its slots keep falling through until written).
 * - A deleted account or a cleared storage gets a local mark (localMarkKey); a zero written over
 *   a slot is kept as ZERO_SHADOW. Neither then falls back to the upstream.
 * - An account the upstream does not have holds no upstream storage: created locally, it is all local.
 */
export class ForkStateManager extends ChainStateManager {
  private readonly accountTrie: MarkerTrie;

  constructor(
    opts: ChainStateManagerOpts & { caches: NonNullable<ChainStateManagerOpts['caches']> },
    readonly fork: ForkState,
  ) {
    super(opts);
    this.accountTrie = opts.trie as unknown as MarkerTrie;
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const local = await super.getAccount(address);
    if (local !== undefined) return local;
    if (await this.isLocal(address.bytes)) return undefined;
    const up = await this.fork.account(address.bytes);
    if (!up) return undefined;
    if (up.code.length > 0) await this.storeCode(up.codeHash, up.code);
    const account = new Account(up.nonce, up.balance, undefined, up.codeHash);
    await super.putAccount(address, account);
    return new Account(up.nonce, up.balance, undefined, up.codeHash);
  }

  override async putAccount(address: Address, account: Account | undefined): Promise<void> {
    if (account === undefined) await this.markLocal(address.bytes);
    await super.putAccount(address, account);
  }

  override async deleteAccount(address: Address): Promise<void> {
    await this.markLocal(address.bytes);
    await super.deleteAccount(address);
  }

  override async clearStorage(address: Address): Promise<void> {
    // The account itself stays the upstream's: read it (into the cache) before the mark hides it.
    await this.getAccount(address);
    await this.markLocal(address.bytes);
    await super.clearStorage(address);
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const account = await this.getAccount(address);
    if (account?.isContract()) {
      // The code of an upstream account may not be in the local database yet (or any more: a
      // revert drops unwritten nodes); the stock getCode would cache it as empty and then write
      // that emptiness back.
      const key = concatBytes(CODE_PREFIX, account.codeHash);
      if ((await this.accountTrie.database().get(key)) === undefined) {
        const up = await this.fork.account(address.bytes);
        if (up && equalsBytes(up.codeHash, account.codeHash)) await this.storeCode(up.codeHash, up.code);
      }
    }
    return super.getCode(address);
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const value = await super.getStorage(address, key);
    if (value.length > 0) return value.length === 1 && value[0] === 0 ? new Uint8Array(0) : value;
    if (await this.isLocal(address.bytes)) return value;
    if (!(await this.fork.account(address.bytes))) return value;
    return this.fork.storage(address.bytes, key);
  }

  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const shadows =
      key.length === 32 &&
      unpadBytes(value).length === 0 &&
      !(await this.isLocal(address.bytes)) &&
      (await this.fork.account(address.bytes)) !== undefined &&
      (await this.getAccount(address)) !== undefined;
    // A zero over a slot that would fall through: keep a zero of our own (the state managers of a
    // chain always have a storage cache; without one the stock write, which clears, is all we have).
    if (!shadows || !putCachedStorage(this, address, key, ZERO_SHADOW)) await super.putStorage(address, key, value);
  }

  /** Writes the fork record (forkChain.ts) into the account trie, under a key no address hashes to. */
  async putForkRecord(key: Uint8Array, value: Uint8Array): Promise<void> {
    await this.accountTrie.put(key, value);
  }

  private async isLocal(address: Uint8Array): Promise<boolean> {
    return (await this.accountTrie.get(localMarkKey(address))) !== null;
  }

  private async markLocal(address: Uint8Array): Promise<void> {
    await this.accountTrie.put(localMarkKey(address), LOCAL_MARK);
  }

  /** Code is content-addressed: writing the upstream's under its hash is always right. */
  private async storeCode(codeHash: Uint8Array, code: Uint8Array): Promise<void> {
    await this.accountTrie.database().put(concatBytes(CODE_PREFIX, codeHash), code);
  }
}
