import { MerkleStateManager } from '@ethereumjs/statemanager';
import { RLP } from '@ethereumjs/rlp';
import { type Address, createAddressFromString, unpadBytes, unprefixedHexToBytes } from '@ethereumjs/util';
import { keepStorageTrie, storageTrieOf, takeStorageWrites } from '../evm/internals.js';

/** Bounds of the head state's caches (see `boundCaches`). */
export const MAX_CACHED_ACCOUNTS = 100_000;
export const MAX_CACHED_SLOT_PUTS = 200_000;

/**
 * MerkleStateManager whose flush writes each account's storage slots together and roots its
 * storage trie once. The stock flush writes slot by slot and recomputes the account's storage
 * root after every slot (each root hashes the changed path up to the top), so a block touching
 * n slots of one contract hashed its upper nodes n times — every block does, for the EIP-4788
 * beacon-root contract's two slots alone. Same tries, same roots, fewer hashes.
 */
export class ChainStateManager extends MerkleStateManager {
  /** Past these, the caches are emptied after a flush (see `boundCaches`). */
  cacheBounds = { accounts: MAX_CACHED_ACCOUNTS, slotPuts: MAX_CACHED_SLOT_PUTS };

  /**
   * A slot write goes to the storage cache only. The stock putStorage also wrote it through to
   * the storage trie and re-rooted it at once (`cache.put(...) ?? write`: put returns undefined),
   * so every SSTORE hashed the account's storage path and re-serialized the account, and the
   * flush at the end of the block did it all again. The flush alone writes the trie.
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const cache = this._caches?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    if ((await this.getAccount(address)) === undefined) throw new Error('putStorage() called on non-existing account');
    cache.put(address, key, RLP.encode(unpadBytes(value)));
  }

  override async flush(): Promise<void> {
    const writes = takeStorageWrites(this);
    if (writes && writes.length > 0) await this.writeStorage(writes);
    // The storage cache is empty now: the stock flush writes code and accounts.
    await super.flush();
    this.boundCaches();
  }

  /**
   * The account and storage caches are @ethereumjs ordered maps, which ignore their size
   * setting: they kept every account and slot the head ever touched. Once everything is
   * flushed outside any checkpoint (nothing in them is newer than the trie), they are emptied
   * past a bound, and what is read next comes from the trie. Subclasses (a fork's state, whose
   * cache shadows the upstream) keep theirs.
   */
  private boundCaches(): void {
    const caches = this._caches;
    if (!caches || this._checkpointCount > 0 || this.constructor !== ChainStateManager) return;
    const accounts = caches.account?.size() ?? 0;
    // Slot puts since the last emptying (reads filling the cache included): a bound on slots held.
    const slotPuts = caches.storage?.stats(false).writes ?? 0;
    if (accounts <= this.cacheBounds.accounts && slotPuts <= this.cacheBounds.slotPuts) return;
    caches.clear();
    caches.storage?.stats(true);
  }

  private async writeStorage(writes: [string, string, Uint8Array | undefined][]): Promise<void> {
    const byAddress = new Map<string, [Uint8Array, Uint8Array | undefined][]>();
    for (const [addressHex, keyHex, value] of writes) {
      let slots = byAddress.get(addressHex);
      if (!slots) {
        slots = [];
        byAddress.set(addressHex, slots);
      }
      slots.push([unprefixedHexToBytes(keyHex), value]);
    }
    for (const [addressHex, slots] of byAddress) {
      const address = createAddressFromString(`0x${addressHex}`);
      const account = await this.getAccount(address);
      if (!account) continue;
      const trie = storageTrieOf(this, address, account);
      for (const [key, value] of slots) {
        // The cache holds the RLP of the unpadded value: empty (0x80) means the slot is cleared.
        const raw = value === undefined ? new Uint8Array(0) : (RLP.decode(value) as Uint8Array);
        if (raw.length > 0) await trie.put(key, value as Uint8Array);
        else await trie.del(key);
      }
      keepStorageTrie(this, addressHex, trie);
      account.storageRoot = trie.root();
      await this.putAccount(address, account);
    }
  }
}
