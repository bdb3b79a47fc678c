import { Address } from '@ethereumjs/util';
import { JournaledCache } from './JournaledMap.js';
import { objectArray } from './objectArray.js';
import { byteKey, bytesOfKey } from './stateCacheKeys.js';

/** @ethereumjs's code cache element (code undefined: deleted), and whether the trie lacks it yet. */
interface CodeEntry {
  code: Uint8Array | undefined;
  written: boolean;
}

/**
 * The head state's code cache: @ethereumjs's CodeCache (same API and journal) over a Map keyed
 * by the address bytes. Code read from the database is kept as not `written`: a flush does not
 * write it back (@ethereumjs re-hashes and re-stores every contract's code it read, and re-puts
 * its account, at the next flush). The same array is handed out while the code is unchanged
 * (the interpreter's jump-destination analysis is cached by it).
 */
export class CodeObjectCache extends JournaledCache<CodeEntry> {
  get(address: Address): CodeEntry | undefined {
    this.counts.reads++;
    const entry = this.map.get(byteKey(address.bytes));
    if (entry !== undefined) this.counts.hits++;
    return entry;
  }

  /** `get` when the address is cached; a miss is not counted (the caller reads through `get` then). */
  peek(address: Address): CodeEntry | undefined {
    const entry = this.map.get(byteKey(address.bytes));
    if (entry === undefined) return undefined;
    this.counts.reads++;
    this.counts.hits++;
    return entry;
  }

  /**
   * Caches code read from the database for an address not cached. Unjournaled, a revert keeps
   * it: only when the account's code hash is what it was before every open checkpoint.
   */
  fill(address: Address, code: Uint8Array, journaled: boolean): void {
    const key = byteKey(address.bytes);
    if (journaled) this.map.set(key, { code, written: false });
    else this.map.setUnjournaled(key, { code, written: false });
  }

  put(address: Address, code: Uint8Array): void {
    this.map.set(byteKey(address.bytes), { code, written: true });
    this.counts.writes++;
  }

  del(address: Address): void {
    this.map.set(byteKey(address.bytes), { code: undefined, written: true });
    this.counts.deletions++;
  }

  /** The code written at the current level since the last flush (undefined: deleted); the level starts afresh. */
  takeWrites(): [Address, Uint8Array | undefined][] {
    // Of objects from the start: empty until the first contract is deployed (see objectArray).
    const writes: [Address, Uint8Array | undefined][] = objectArray();
    const keys = this.map.takeChanged();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const entry = this.map.get(key);
      if (entry === undefined || !entry.written) continue;
      writes.push([new Address(bytesOfKey(key)), entry.code]);
    }
    return writes;
  }
}
