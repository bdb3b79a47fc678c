/**
 * Values by 32-byte key (trie nodes by hash), for a chain kept in memory: one 16-byte record per
 * slot (open addressing, linear probing), keys and values packed end to end in large slabs. An
 * entry costs its record, its 32 key bytes and its value bytes; there is no JS object per entry.
 *
 * A record is the key's 32-bit tag (see tagOf: its low bits are the home slot), the slab, the
 * offset of the key in it, and the value's length; the value follows the key. A probe
 * reads records only, four to a cache line, and compares a key only where the tag matched: adding
 * a node (always a new key) touches one record, scattered somewhere in the table, and the end of
 * the current slab, which was just written. With keys in an array of their own and the tags and
 * places in two more, an insert touched three scattered cache lines, a third of a microsecond
 * each on this host once the table outgrew the caches (~25 nodes per automined block).
 *
 * A `Map` keyed by 64-character hex strings with a Uint8Array per value cost ~220 bytes per node
 * beyond the value bytes (string, typed-array object, map slot), ~29 nodes per automined block
 * (measured at 3,000 blocks: 18 MiB for 80,000 nodes).
 *
 * Entries are never removed (archive: nodes are content-addressed and shared between roots);
 * `set` of a key already present keeps the first value (same key, same content).
 */
export class NodeTable {
  /** Per slot: tag (see tagOf; 0: empty slot), slab number + 1, key offset in the slab, value length. */
  private records: Uint32Array;
  private mask: number;
  private count = 0;
  private readonly slabs: Uint8Array[] = [];
  /** The slab entries are appended to, and how much of it is used. */
  private slab: Uint8Array | undefined;
  private slabUsed = 0;
  /** Index of `slab` in `slabs`. */
  private slabNo = -1;
  /** Where the last `append` put its key in its slab. */
  private appendedAt = 0;
  private slabSize = MIN_SLAB;

  constructor(capacity = 1024) {
    let cap = 16;
    while (cap < capacity) cap *= 2;
    this.records = new Uint32Array(cap * RECORD);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  /** The value stored under `key` (32 bytes), a view into the table's storage: do not modify it. */
  get(key: Uint8Array): Uint8Array | undefined {
    if (key.length !== 32) return undefined;
    const r = this.slot(key, 0) * RECORD;
    const records = this.records;
    if (records[r] === 0) return undefined;
    const at = records[r + 2] + 32;
    return this.slabs[records[r + 1] - 1].subarray(at, at + records[r + 3]);
  }

  has(key: Uint8Array): boolean {
    return key.length === 32 && this.records[this.slot(key, 0) * RECORD] !== 0;
  }

  /** Stores a copy of `value` under `key` (32 bytes) unless the key is present. */
  set(key: Uint8Array, value: Uint8Array): void {
    if (key.length !== 32) throw new Error(`NodeTable keys are 32 bytes, got ${key.length}`);
    this.setFrom(key, 0, value, 0, value.length);
  }

  /** `set` of the key at `keys[keyAt..keyAt + 32]` and the value at `bytes[at..at + length]` (both copied). */
  setFrom(keys: Uint8Array, keyAt: number, bytes: Uint8Array, at: number, length: number): void {
    let i = this.slot(keys, keyAt);
    if (this.records[i * RECORD] !== 0) return;
    if ((this.count + 1) * 4 > (this.mask + 1) * 3) {
      this.grow();
      i = this.slot(keys, keyAt);
    }
    const slabNo = this.append(keys, keyAt, bytes, at, length);
    const records = this.records;
    const r = i * RECORD;
    records[r] = tagOf(keys, keyAt);
    records[r + 1] = slabNo;
    records[r + 2] = this.appendedAt;
    records[r + 3] = length;
    this.count++;
  }

  /** Bytes held: records and slabs (what the table costs, for reports). */
  get byteSize(): number {
    let slabs = 0;
    for (const s of this.slabs) slabs += s.byteLength;
    return this.records.byteLength + slabs;
  }

  /** The slot holding the 32-byte key at `src[at..]`, or the empty slot where it would go. */
  private slot(src: Uint8Array, at: number): number {
    const records = this.records;
    const mask = this.mask;
    const tag = tagOf(src, at);
    let i = tag & mask;
    for (;;) {
      const r = i * RECORD;
      const t = records[r];
      if (t === 0) return i;
      if (t === tag) {
        const slab = this.slabs[records[r + 1] - 1];
        const o = records[r + 2];
        let b = 0;
        while (b < 32 && slab[o + b] === src[at + b]) b++;
        if (b === 32) return i;
      }
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.records;
    const cap = (this.mask + 1) * 2;
    const records = new Uint32Array(cap * RECORD);
    const mask = cap - 1;
    for (let r = 0; r < old.length; r += RECORD) {
      if (old[r] === 0) continue;
      // Keys are distinct: the first empty slot from home is the key's, no key compared.
      let i = old[r] & mask;
      while (records[i * RECORD] !== 0) i = (i + 1) & mask;
      const d = i * RECORD;
      records[d] = old[r];
      records[d + 1] = old[r + 1];
      records[d + 2] = old[r + 2];
      records[d + 3] = old[r + 3];
    }
    this.records = records;
    this.mask = mask;
  }

  /**
   * Copies the key and then the value into a slab; returns slab number + 1 and sets `appendedAt`
   * to the key's offset there.
   */
  private append(keys: Uint8Array, keyAt: number, bytes: Uint8Array, at: number, length: number): number {
    const size = 32 + length;
    let slab = this.slab;
    if (size > MAX_SLAB / 4) {
      // Large values get a slab of their own; the shared slab stays open for small ones.
      slab = new Uint8Array(size);
      this.slabs.push(slab);
      this.appendedAt = 0;
    } else {
      if (slab === undefined || this.slabUsed + size > slab.length) {
        // Slabs grow with the table, so a small chain stays small and a long one has few slabs.
        slab = new Uint8Array(this.slabSize);
        this.slab = slab;
        this.slabSize = Math.min(this.slabSize * 2, MAX_SLAB);
        this.slabs.push(slab);
        this.slabNo = this.slabs.length - 1;
        this.slabUsed = 0;
      }
      this.appendedAt = this.slabUsed;
      this.slabUsed += size;
    }
    const o = this.appendedAt;
    for (let b = 0; b < 32; b++) slab[o + b] = keys[keyAt + b];
    // A block's nodes may come as spans of one buffer (PendingNodes), set() through a subarray
    // view: subarray and set are V8 builtins, as fast from a fresh node's first call (Buffer's copy
    // was JavaScript that ran interpreted for the first thousands of nodes).
    if (at === 0 && length === bytes.length) slab.set(bytes, o + 32);
    else slab.set(bytes.subarray(at, at + length), o + 32);
    return slab === this.slab ? this.slabNo + 1 : this.slabs.length;
  }
}

/** 32-bit words per slot record. */
const RECORD = 4;

/**
 * A key's tag: three of its 32-bit words mixed (keys are hashes, as good as any hash of them),
 * with the top bit set so that no tag is 0 (the empty slot's). Its low bits are the key's home
 * slot (tables stay under 2^31 slots), so growing the table reads records only, never a key.
 */
function tagOf(src: Uint8Array, at: number): number {
  const w =
    (src[at] | (src[at + 1] << 8) | (src[at + 2] << 16) | (src[at + 3] << 24)) ^
    (src[at + 4] | (src[at + 5] << 8) | (src[at + 6] << 16) | (src[at + 7] << 24)) ^
    (src[at + 28] | (src[at + 29] << 8) | (src[at + 30] << 16) | (src[at + 31] << 24));
  return (w | 0x80000000) >>> 0;
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
