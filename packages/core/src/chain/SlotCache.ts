import { Address } from '@ethereumjs/util';
import { keepPrimed } from '../index/keepPrimed.js';
import { type CacheStats, noStats } from './JournaledMap.js';
import { byteKey, bytesOfKey, hexKey } from './stateCacheKeys.js';

/** RLP of the empty byte string: a slot known to be zero. */
const RLP_EMPTY = Uint8Array.of(0x80);

/** Per address (unprefixed hex), per slot (`byteKey`), a slot's RLP-encoded value. */
type SlotMaps<T> = Map<string, Map<string, T>>;

/** A pending storage write: address hex, slot bytes, RLP of the value (undefined: cleared). */
export type SlotWrite = [addressHex: string, slot: Uint8Array, value: Uint8Array | undefined];

/** One account's pending storage writes: slots and values (RLP; undefined: cleared), in the order written. */
export interface SlotWriteGroup {
  readonly addressHex: string;
  readonly slots: Uint8Array[];
  readonly values: (Uint8Array | undefined)[];
}

/**
 * The head state's storage cache: @ethereumjs's StorageCache (same API, same journal, same
 * values: the RLP of each slot's unpadded value) over plain Maps with cheap keys instead of a
 * red-black tree keyed by noble hex. Addresses keep @ethereumjs's key, unprefixed hex, so
 * `_diffCache` reads as @ethereumjs's does (finalizeBlock asks it which accounts have unwritten
 * slots, through evm/internals.ts `storageDiffLevels`).
 */
export class SlotCache {
  private readonly slots: SlotMaps<Uint8Array | undefined> = new Map();
  /** Per checkpoint level, each changed slot's value before its first change at that level. */
  _diffCache: SlotMaps<Uint8Array | undefined>[] = [new Map()];
  /** An empty level map no longer in `_diffCache`, for the next checkpoint (see JournaledMap's `spare`). */
  private spare: SlotMaps<Uint8Array | undefined> | undefined;
  private counts = noStats();

  get(address: Address, key: Uint8Array): Uint8Array | undefined {
    this.counts.reads++;
    const slots = this.slots.get(hexKey(address.bytes));
    if (slots === undefined) return undefined;
    this.counts.hits++;
    return slots.get(byteKey(key));
  }

  /** Sets a slot's RLP-encoded value (what MerkleStateManager's getStorage and putStorage put). */
  put(address: Address, key: Uint8Array, value: Uint8Array): void {
    this.set(hexKey(address.bytes), byteKey(key), value);
    this.counts.writes++;
  }

  /**
   * Caches a slot's RLP-encoded value read from the storage trie, for a slot not cached.
   * Unjournaled, a revert keeps it: only when the storage trie read is the one before every
   * open checkpoint. Counted with the puts (ChainStateManager bounds the cache by them).
   */
  fill(address: Address, key: Uint8Array, value: Uint8Array, journaled: boolean): void {
    const addressHex = hexKey(address.bytes);
    if (journaled) this.set(addressHex, byteKey(key), value);
    else {
      let slots = this.slots.get(addressHex);
      if (slots === undefined) {
        slots = new Map();
        this.slots.set(addressHex, slots);
      }
      slots.set(byteKey(key), value);
    }
    this.counts.writes++;
  }

  del(address: Address, key: Uint8Array): void {
    this.set(hexKey(address.bytes), byteKey(key), RLP_EMPTY);
    this.counts.deletions++;
  }

  /**
   * Forgets the address's cached slots (the caller empties its storage trie). Journaled, unlike
   * @ethereumjs's: a revert puts the slots back. @ethereumjs could forget them because its
   * putStorage also wrote each slot through to the storage trie, whose root the revert restores;
   * ChainStateManager.putStorage writes the cache only, so a slot written below the checkpoint
   * and not yet flushed lives nowhere else. A flush then deletes them from the emptied trie.
   */
  clearStorage(address: Address): void {
    const addressHex = hexKey(address.bytes);
    const slots = this.slots.get(addressHex);
    if (slots !== undefined && slots.size > 0) {
      const changed = this.changedAt(addressHex);
      for (const [key, value] of slots) if (!changed.has(key)) changed.set(key, value);
    }
    this.slots.set(addressHex, new Map());
  }

  /** The slots written at the current checkpoint level since the last flush; the level starts afresh. */
  takeWrites(): SlotWrite[] {
    const top = this._diffCache.length - 1;
    const changed = this._diffCache[top];
    if (changed.size === 0) return [];
    this._diffCache[top] = new Map();
    const items: SlotWrite[] = [];
    for (const [addressHex, keys] of changed) {
      const slots = this.slots.get(addressHex);
      if (slots === undefined) continue;
      for (const key of keys.keys()) items.push([addressHex, bytesOfKey(key), slots.get(key)]);
    }
    return items;
  }

  /**
   * `takeWrites` grouped by account, as a flush writes them (each account's storage trie is
   * rooted once): the level is already grouped, so no triple per slot, no map to regroup them.
   */
  takeWriteGroups(): SlotWriteGroup[] {
    const top = this._diffCache.length - 1;
    const changed = this._diffCache[top];
    if (changed.size === 0) return [];
    this._diffCache[top] = new Map();
    const groups: SlotWriteGroup[] = [];
    // Keys, then get: a Map's entries iterator makes a [key, value] array per entry.
    for (const addressHex of changed.keys()) {
      const slots = this.slots.get(addressHex);
      if (slots === undefined) continue;
      const group: SlotWriteGroup = { addressHex, slots: [], values: [] };
      for (const key of (changed.get(addressHex) as Map<string, Uint8Array | undefined>).keys()) {
        group.slots.push(bytesOfKey(key));
        group.values.push(slots.get(key));
      }
      groups.push(group);
    }
    return groups;
  }

  /** `takeWrites` in @ethereumjs's StorageCache.flush form (slots as unprefixed hex). */
  flush(): [string, string, Uint8Array | undefined][] {
    return this.takeWrites().map(([addressHex, slot, value]) => [addressHex, hexKey(slot), value]);
  }

  checkpoint(): void {
    const level = this.spare ?? new Map<string, Map<string, Uint8Array | undefined>>();
    this.spare = undefined;
    this._diffCache.push(level);
  }

  commit(): void {
    if (this._diffCache.length < 2) throw new Error('SlotCache.commit without a checkpoint');
    const higher = this._diffCache.pop() as SlotMaps<Uint8Array | undefined>;
    const top = this._diffCache.length - 1;
    const lower = this._diffCache[top];
    if (lower.size === 0) {
      // Every address of `higher` would be moved over with its keys, in order: `higher` becomes the level.
      this._diffCache[top] = higher;
      this.spare = lower;
      return;
    }
    if (higher.size === 0) this.spare = higher;
    // Keys then get, not entries destructured (see JournaledMap.commit).
    for (const addressHex of higher.keys()) {
      const keys = higher.get(addressHex) as Map<string, Uint8Array | undefined>;
      const lowerKeys = lower.get(addressHex);
      if (lowerKeys === undefined) {
        lower.set(addressHex, keys);
        continue;
      }
      for (const key of keys.keys()) if (!lowerKeys.has(key)) lowerKeys.set(key, keys.get(key));
    }
  }

  revert(): void {
    if (this._diffCache.length < 2) throw new Error('SlotCache.revert without a checkpoint');
    const higher = this._diffCache.pop() as SlotMaps<Uint8Array | undefined>;
    for (const addressHex of higher.keys()) {
      const keys = higher.get(addressHex) as Map<string, Uint8Array | undefined>;
      let slots = this.slots.get(addressHex);
      if (slots === undefined) {
        slots = new Map();
        this.slots.set(addressHex, slots);
      }
      for (const key of keys.keys()) {
        const earlier = keys.get(key);
        // As @ethereumjs: an earlier value that is absent (or empty) leaves the slot uncached.
        if (!earlier) slots.delete(key);
        else slots.set(key, earlier);
      }
    }
    if (higher.size === 0) this.spare = higher;
  }

  /** Forgets every slot and every pending write (see JournaledMap.clear). */
  clear(): void {
    this.slots.clear();
    this._diffCache = this._diffCache.map(() => new Map());
  }

  size(): number {
    return this.slots.size;
  }

  /** Slot puts since the stats were last reset (reads filling the cache included). */
  get writes(): number {
    return this.counts.writes;
  }

  stats(reset = true): CacheStats {
    const out = { ...this.counts, size: this.size() };
    if (reset) this.counts = noStats();
    return out;
  }

  private set(addressHex: string, key: string, value: Uint8Array): void {
    let slots = this.slots.get(addressHex);
    if (slots === undefined) {
      slots = new Map();
      this.slots.set(addressHex, slots);
    }
    const changed = this.changedAt(addressHex);
    if (!changed.has(key)) changed.set(key, slots.get(key));
    slots.set(key, value);
  }

  /** The address's slots changed at the current checkpoint level, with their earlier values. */
  private changedAt(addressHex: string): Map<string, Uint8Array | undefined> {
    const level = this._diffCache[this._diffCache.length - 1];
    let changed = level.get(addressHex);
    if (changed === undefined) {
      changed = new Map();
      level.set(addressHex, changed);
    }
    return changed;
  }
}

// commit's loop over the higher level's addresses runs only when both levels hold slots: a fresh
// node's value transfers never get there (their transactions write no slot; the system contracts'
// slots are written before the first checkpoint), so the first contract that wrote a slot threw
// commit's optimised code away ('Insufficient type feedback', the loop's `higher.get`; W4 after
// W1,W2). A throwaway cache runs it here, with an address already in the lower level and one not
// (a class's methods share their feedback between instances), and is kept for the process's life
// (keepPrimed: V8 holds map transitions weakly).
{
  const primer = keepPrimed(new SlotCache());
  const a = new Address(new Uint8Array(20));
  const b = new Address(new Uint8Array(20).fill(1));
  const one = new Uint8Array(32);
  const two = new Uint8Array(32).fill(2);
  const value = Uint8Array.of(1);
  for (let i = 0; i < 16; i++) {
    primer.checkpoint();
    primer.put(a, one, value);
    primer.checkpoint();
    primer.put(a, two, value);
    primer.put(b, one, value);
    primer.commit();
    primer.commit();
  }
}
