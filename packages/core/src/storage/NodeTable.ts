/**
 * Values by 32-byte key (trie nodes by hash), for a chain kept in memory: keys in one flat array
 * (open addressing, linear probing), values packed end to end in large slabs. An entry costs its
 * 32 key bytes, four 32-bit words and its value bytes; there is no JS object per entry.
 *
 * A probe reads a slot's 32-bit tag (four more bytes of the key) before its key: the tags of a
 * probe chain sit in one cache line, so adding a node (always a new key) or growing the table
 * does not touch a key per probed slot, scattered over megabytes.
 *
 * A `Map` keyed by 64-character hex strings with a Uint8Array per value cost ~220 bytes per node
 * beyond the value bytes (string, typed-array object, map slot), ~29 nodes per automined block
 * (measured at 3,000 blocks: 18 MiB for 80,000 nodes, now ~4 MiB).
 *
 * Entries are never removed (archive: nodes are content-addressed and shared between roots);
 * `set` of a key already present keeps the first value (same key, same content).
 */
export class NodeTable {
  private keys: Uint8Array;
  /** Per slot: key bytes 4..7 with the low bit set (see tagOf); 0: empty slot. */
  private tags: Uint32Array;
  /** Per slot: slab number + 1, offset in the slab, value length. */
  private where: Uint32Array;
  private mask: number;
  private count = 0;
  private readonly slabs: Uint8Array[] = [];
  /** The slab values are appended to, and how much of it is used. */
  private slab: Uint8Array | undefined;
  private slabUsed = 0;
  /** Index of `slab` in `slabs`. */
  private slabNo = -1;
  /** Where the last `append` put its value in its slab. */
  private appendedAt = 0;
  private slabSize = MIN_SLAB;

  constructor(capacity = 1024) {
    let cap = 16;
    while (cap < capacity) cap *= 2;
    this.keys = new Uint8Array(cap * 32);
    this.tags = new Uint32Array(cap);
    this.where = new Uint32Array(cap * 3);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  /** The value stored under `key` (32 bytes), a view into the table's storage: do not modify it. */
  get(key: Uint8Array): Uint8Array | undefined {
    const i = this.find(key);
    if (i < 0) return undefined;
    const w = i * 3;
    const slab = this.slabs[this.where[w] - 1];
    return slab.subarray(this.where[w + 1], this.where[w + 1] + this.where[w + 2]);
  }

  has(key: Uint8Array): boolean {
    return this.find(key) >= 0;
  }

  /** Stores a copy of `value` under `key` (32 bytes) unless the key is present. */
  set(key: Uint8Array, value: Uint8Array): void {
    if (key.length !== 32) throw new Error(`NodeTable keys are 32 bytes, got ${key.length}`);
    this.setFrom(key, 0, value, 0, value.length);
  }

  /** `set` of the key at `keys[keyAt..keyAt + 32]` and the value at `bytes[at..at + length]` (both copied). */
  setFrom(keys: Uint8Array, keyAt: number, bytes: Uint8Array, at: number, length: number): void {
    let i = this.slot(keys, keyAt);
    if (this.tags[i] !== 0) return;
    if ((this.count + 1) * 4 > (this.mask + 1) * 3) {
      this.grow();
      i = this.slot(keys, keyAt);
    }
    const w = i * 3;
    this.tags[i] = tagOf(keys, keyAt);
    this.where[w] = this.append(bytes, at, length);
    this.where[w + 1] = this.appendedAt;
    this.where[w + 2] = length;
    const k = this.keys;
    for (let b = 0; b < 32; b++) k[i * 32 + b] = keys[keyAt + b];
    this.count++;
  }

  /** Bytes held: key array, slot words and slabs (what the table costs, for reports). */
  get byteSize(): number {
    let slabs = 0;
    for (const s of this.slabs) slabs += s.byteLength;
    return this.keys.byteLength + this.tags.byteLength + this.where.byteLength + slabs;
  }

  /** Slot holding `key`, or -1. */
  private find(key: Uint8Array): number {
    if (key.length !== 32) return -1;
    const i = this.slot(key, 0);
    return this.tags[i] === 0 ? -1 : i;
  }

  /** The slot holding the 32-byte key at `src[at..]`, or the empty slot where it would go. */
  private slot(src: Uint8Array, at: number): number {
    const keys = this.keys;
    const tags = this.tags;
    const mask = this.mask;
    const tag = tagOf(src, at);
    let i = homeOf(src, at) & mask;
    for (;;) {
      const t = tags[i];
      if (t === 0) return i;
      if (t === tag) {
        const o = i * 32;
        let b = 0;
        while (b < 32 && keys[o + b] === src[at + b]) b++;
        if (b === 32) return i;
      }
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldTags = this.tags;
    const oldWhere = this.where;
    const cap = (this.mask + 1) * 2;
    const keys = new Uint8Array(cap * 32);
    const tags = new Uint32Array(cap);
    const where = new Uint32Array(cap * 3);
    const mask = cap - 1;
    // Keys move as eight 32-bit words (both arrays start a buffer of their own, so the views are
    // aligned; a word copy is the same bytes whatever the platform's byte order). A subarray per
    // key to set() it was ~100 bytes of garbage per node moved; byte by byte, the 32-step loop was
    // most of a growth, and a fresh node grows its table ~6 times in its first 50,000 nodes.
    const from = new Uint32Array(oldKeys.buffer, 0, oldKeys.length >> 2);
    const to = new Uint32Array(keys.buffer, 0, keys.length >> 2);
    for (let j = 0; j < oldTags.length; j++) {
      if (oldTags[j] === 0) continue;
      // Keys are distinct: the first empty slot from home is the key's, no key compared.
      let i = homeOf(oldKeys, j * 32) & mask;
      while (tags[i] !== 0) i = (i + 1) & mask;
      tags[i] = oldTags[j];
      const d = i * 8;
      const s = j * 8;
      to[d] = from[s];
      to[d + 1] = from[s + 1];
      to[d + 2] = from[s + 2];
      to[d + 3] = from[s + 3];
      to[d + 4] = from[s + 4];
      to[d + 5] = from[s + 5];
      to[d + 6] = from[s + 6];
      to[d + 7] = from[s + 7];
      where[i * 3] = oldWhere[j * 3];
      where[i * 3 + 1] = oldWhere[j * 3 + 1];
      where[i * 3 + 2] = oldWhere[j * 3 + 2];
    }
    this.keys = keys;
    this.tags = tags;
    this.where = where;
    this.mask = mask;
  }

  /** Copies `value` into a slab; returns slab number + 1 and sets `appendedAt` to the offset there. */
  private append(bytes: Uint8Array, at: number, length: number): number {
    if (length > MAX_SLAB / 4) {
      // Large values get a slab of their own; the shared slab stays open for small ones.
      this.slabs.push(bytes.slice(at, at + length));
      this.appendedAt = 0;
      return this.slabs.length;
    }
    if (!this.slab || this.slabUsed + length > this.slab.length) {
      // Slabs grow with the table, so a small chain stays small and a long one has few slabs.
      this.slab = new Uint8Array(this.slabSize);
      this.slabSize = Math.min(this.slabSize * 2, MAX_SLAB);
      this.slabs.push(this.slab);
      this.slabNo = this.slabs.length - 1;
      this.slabUsed = 0;
    }
    this.appendedAt = this.slabUsed;
    // A block's nodes come as spans of one buffer (PendingNodes), set() through a subarray view.
    // Buffer's copy made the same view inside node's buffer.js (_copyActual), JavaScript that a
    // fresh node ran interpreted for its first thousands of nodes (~20 us per automined block in
    // a fresh profile); subarray and set are V8 builtins, as fast from the first call.
    if (at === 0 && length === bytes.length) this.slab.set(bytes, this.slabUsed);
    else this.slab.set(bytes.subarray(at, at + length), this.slabUsed);
    this.slabUsed += length;
    return this.slabNo + 1;
  }
}

/** Home slot bits of a key: keys are hashes, their bytes are as good as any hash of them (first and last word mixed). */
function homeOf(src: Uint8Array, at: number): number {
  return (
    (src[at] | (src[at + 1] << 8) | (src[at + 2] << 16) | (src[at + 3] << 24)) ^
    (src[at + 31] | (src[at + 30] << 8) | (src[at + 29] << 16))
  );
}

/** A key's tag: four bytes the home slot is not taken from, never 0 (the empty slot's). */
function tagOf(src: Uint8Array, at: number): number {
  return (src[at + 4] | (src[at + 5] << 8) | (src[at + 6] << 16) | (src[at + 7] << 24) | 1) >>> 0;
}

const MIN_SLAB = 16 * 1024;
const MAX_SLAB = 1024 * 1024;

// A table grows (and opens a new slab) only now and then: on a fresh node the first growth
// after setFrom was optimised met code with no feedback for it and V8 threw setFrom away to
// compile it again. A throwaway table grown a few times here gives those branches their feedback
// (a class's methods share it between instances, once V8 keeps any: after a function has run a
// while); nothing of it is kept.
{
  const primer = new NodeTable(16);
  const key = new Uint8Array(32);
  const value = new Uint8Array(400);
  for (let n = 1; n <= 100; n++) {
    key[0] = n;
    key[31] = n;
    primer.setFrom(key, 0, value, 0, value.length);
  }
}
