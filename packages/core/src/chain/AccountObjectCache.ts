import { Account, type Address } from '@ethereumjs/util';
import { JournaledCache } from './JournaledMap.js';
import { encodeAccount } from './accountRlp.js';
import { byteKey } from './stateCacheKeys.js';

/** A cached account (undefined: known not to exist). Every entry has both fields: one hidden class. */
interface AccountEntry {
  account: Account | undefined;
  /** Set when the account was written and the trie may not hold it yet: the address bytes, its trie key. */
  written: Uint8Array | undefined;
}

/** A copy callers may change freely (the EVM changes the Account it got, then puts it back). */
export function copyAccount(a: Account): Account {
  return new Account(a._nonce, a._balance, a._storageRoot, a._codeHash, a._codeSize, a._version);
}

/**
 * The head state's account cache. @ethereumjs's AccountCache holds each account's RLP in a
 * red-black tree keyed by hex: every read decodes it (createAccountFromRLP) and every write
 * encodes it, and the EVM's journal writes every account a transaction touches. This one holds
 * decoded Accounts in a Map keyed by the address bytes, copies them in and out (never the
 * caller's object), and encodes an account only when a flush writes it to the trie.
 *
 * Accounts read from the trie are kept as not `written`: a flush does not write them back
 * (@ethereumjs writes every account it read, unchanged, at the next flush).
 */
export class AccountObjectCache extends JournaledCache<AccountEntry> {
  /** A copy of the cached account; null when it is known not to exist; undefined when not cached. */
  read(address: Address): Account | null | undefined {
    this.counts.reads++;
    const entry = this.map.get(byteKey(address.bytes));
    if (entry === undefined) return undefined;
    this.counts.hits++;
    return entry.account === undefined ? null : copyAccount(entry.account);
  }

  /** True when an account is cached for the address (nothing copied); false when it is not cached or known not to exist. */
  holdsAccount(address: Address): boolean {
    const entry = this.map.get(byteKey(address.bytes));
    if (entry === undefined || entry.account === undefined) return false;
    this.counts.reads++;
    this.counts.hits++;
    return true;
  }

  /** `read` when the address is cached; a miss is not counted (the caller reads the trie through `read` then). */
  peek(address: Address): Account | null | undefined {
    const entry = this.map.get(byteKey(address.bytes));
    if (entry === undefined) return undefined;
    this.counts.reads++;
    this.counts.hits++;
    return entry.account === undefined ? null : copyAccount(entry.account);
  }

  /**
   * Caches what the trie holds for an address not cached (the account is kept, not copied: pass
   * one nobody else holds). Unjournaled, a revert keeps it: only when the trie holds what it
   * held before every open checkpoint.
   */
  fill(address: Address, account: Account | undefined, journaled: boolean): void {
    const key = byteKey(address.bytes);
    const entry: AccountEntry = { account, written: undefined };
    if (journaled) this.map.set(key, entry);
    else this.map.setUnjournaled(key, entry);
  }

  /** True when the account was written (or deleted) inside an open checkpoint. */
  changedInCheckpoint(address: Address): boolean {
    return this.map.changedInCheckpoint(byteKey(address.bytes));
  }

  /** Writes a copy of `account` (undefined: the account is deleted). */
  put(address: Address, account: Account | undefined): void {
    this.map.set(byteKey(address.bytes), { account: account && copyAccount(account), written: address.bytes });
    this.counts.writes++;
  }

  /** @ethereumjs's AccountCache.del (Caches.deleteAccount calls it). */
  del(address: Address): void {
    this.map.set(byteKey(address.bytes), { account: undefined, written: address.bytes });
    this.counts.deletions++;
  }

  /**
   * The accounts written at the current checkpoint level since the last flush, as trie writes:
   * address bytes and RLP (undefined: delete). The level's journal starts afresh.
   */
  takeWrites(): [Uint8Array, Uint8Array | undefined][] {
    const writes: [Uint8Array, Uint8Array | undefined][] = [];
    const keys = this.map.takeChanged();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const entry = this.map.get(key);
      if (entry?.written === undefined) continue;
      writes.push([entry.written, entry.account && encodeAccount(entry.account)]);
    }
    return writes;
  }
}
