import { MerkleStateManager } from '@ethereumjs/statemanager';
import { RLP } from '@ethereumjs/rlp';
import { createAddressFromString, unprefixedHexToBytes } from '@ethereumjs/util';
import { keepStorageTrie, storageTrieOf, takeStorageWrites } from '../evm/internals.js';

/**
 * MerkleStateManager whose flush writes each account's storage slots together and roots its
 * storage trie once. The stock flush writes slot by slot and recomputes the account's storage
 * root after every slot (each root hashes the changed path up to the top), so a block touching
 * n slots of one contract hashed its upper nodes n times — every block does, for the EIP-4788
 * beacon-root contract's two slots alone. Same tries, same roots, fewer hashes.
 */
export class ChainStateManager extends MerkleStateManager {
  override async flush(): Promise<void> {
    const writes = takeStorageWrites(this);
    if (writes && writes.length > 0) await this.writeStorage(writes);
    // The storage cache is empty now: the stock flush writes code and accounts.
    await super.flush();
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
