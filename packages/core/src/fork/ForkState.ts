import { KECCAK256_NULL, bytesToUnprefixedHex, unpadBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { Lru } from '../util/Lru.js';
import type { ForkStateSource } from './upstream/ForkStateSource.js';

/** An upstream account as the local state needs it: the code's hash beside the code. */
export interface ForkAccount {
  nonce: bigint;
  balance: bigint;
  code: Uint8Array;
  codeHash: Uint8Array;
}

/**
 * The upstream's state at the fork block, as every state manager of a forked chain reads it: the
 * ForkStateSource (upstream plus its cache, which may be on disk) behind a small memory of
 * answers. The state at block N never changes, so an answer is good for the life of the fork; the
 * memory only spares a cache read (a LevelDB get) per SLOAD.
 */
export class ForkState {
  private readonly accounts = new Lru<string, ForkAccount | null>(20_000);
  private readonly slots = new Lru<string, Uint8Array>(100_000);

  constructor(readonly source: ForkStateSource) {}

  get blockNumber(): bigint {
    return this.source.blockNumber;
  }

  /** The account at N, or undefined when it is empty there (no nonce, balance or code). */
  async account(address: Uint8Array): Promise<ForkAccount | undefined> {
    const key = bytesToUnprefixedHex(address);
    const hit = this.accounts.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const a = await this.source.getAccount(address);
    const empty = a.nonce === 0n && a.balance === 0n && a.code.length === 0;
    const account = empty ? null : { ...a, codeHash: a.code.length === 0 ? KECCAK256_NULL : keccak_256(a.code) };
    this.accounts.set(key, account);
    return account ?? undefined;
  }

  /** A storage word at N, unpadded as the state manager answers it (empty for zero). */
  async storage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    const key = bytesToUnprefixedHex(address) + bytesToUnprefixedHex(slot);
    const hit = this.slots.get(key);
    if (hit !== undefined) return hit;
    const word = unpadBytes(await this.source.getStorage(address, slot));
    this.slots.set(key, word);
    return word;
  }
}
