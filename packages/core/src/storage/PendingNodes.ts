/**
 * Trie nodes written since the last block commit, by 32-byte hash: a block's few dozen nodes,
 * drained into the block's batch (or the in-memory node table) and then cleared. Keys and
 * values are copied end to end into two reused byte arrays and looked up by open addressing, so
 * buffering a node allocates nothing. Replaces a Map keyed by 64-character hex strings, whose
 * key strings cost more than the nodes' hashing.
 */
export class PendingNodes {
  private count = 0;
  private keys = new Uint8Array(INITIAL * 32);
  /** Per entry: offset and length of its value in `bytes`. */
  private spans = new Uint32Array(INITIAL * 2);
  private bytes = new Uint8Array(INITIAL * 256);
  private used = 0;
  /** Per slot: entry number + 1 (0: empty slot). */
  private index = new Int32Array(INITIAL * 2);

  get size(): number {
    return this.count;
  }

  /** A copy of the value under `key` (the buffer's memory is reused after `clear`). */
  get(key: Uint8Array): Uint8Array | undefined {
    const e = this.index[this.slot(key)];
    if (e === 0) return undefined;
    const at = this.spans[(e - 1) * 2];
    return this.bytes.slice(at, at + this.spans[(e - 1) * 2 + 1]);
  }

  /** Stores copies of `key` (32 bytes) and `value`, replacing what the key held. */
  set(key: Uint8Array, value: Uint8Array): void {
    let s = this.slot(key);
    let e = this.index[s];
    if (e === 0) {
      if ((this.count + 1) * 2 > this.index.length) {
        this.grow();
        s = this.slot(key);
      }
      e = ++this.count;
      this.keys.set(key, (e - 1) * 32);
      this.index[s] = e;
    }
    if (this.used + value.length > this.bytes.length) {
      const bytes = new Uint8Array(Math.max(this.bytes.length * 2, this.used + value.length));
      bytes.set(this.bytes.subarray(0, this.used));
      this.bytes = bytes;
    }
    this.bytes.set(value, this.used);
    this.spans[(e - 1) * 2] = this.used;
    this.spans[(e - 1) * 2 + 1] = value.length;
    this.used += value.length;
  }

  /**
   * Calls `fn` for each entry in insertion order with the key at `keys[keyAt..keyAt + 32]` and
   * the value at `bytes[at..at + length]`: views of the buffer's memory, valid during the call.
   */
  forEach(fn: (keys: Uint8Array, keyAt: number, bytes: Uint8Array, at: number, length: number) => void): void {
    for (let i = 0; i < this.count; i++) fn(this.keys, i * 32, this.bytes, this.spans[i * 2], this.spans[i * 2 + 1]);
  }

  clear(): void {
    if (this.count === 0) return;
    this.count = 0;
    this.used = 0;
    // After a large write (genesis, a big import) start small again instead of keeping big arrays.
    if (this.index.length > INITIAL * 8) {
      this.keys = new Uint8Array(INITIAL * 32);
      this.spans = new Uint32Array(INITIAL * 2);
      this.bytes = new Uint8Array(INITIAL * 256);
      this.index = new Int32Array(INITIAL * 2);
    } else this.index.fill(0);
  }

  /** The slot holding the key at `src[at..at + 32]`, or the empty slot where it would go. */
  private slot(src: Uint8Array, at = 0): number {
    const mask = this.index.length - 1;
    const keys = this.keys;
    // Keys are hashes: their first bytes are as good as any hash of them.
    let s = (src[at] | (src[at + 1] << 8) | (src[at + 2] << 16)) & mask;
    for (;;) {
      const e = this.index[s];
      if (e === 0) return s;
      const o = (e - 1) * 32;
      let b = 0;
      while (b < 32 && keys[o + b] === src[at + b]) b++;
      if (b === 32) return s;
      s = (s + 1) & mask;
    }
  }

  private grow(): void {
    const cap = this.index.length;
    const keys = new Uint8Array(cap * 32);
    keys.set(this.keys);
    this.keys = keys;
    const spans = new Uint32Array(cap * 2);
    spans.set(this.spans);
    this.spans = spans;
    this.index = new Int32Array(cap * 2);
    for (let i = 0; i < this.count; i++) this.index[this.slot(keys, i * 32)] = i + 1;
  }
}

/** Entries before the first growth (a one-transaction block writes ~20-40 nodes). */
const INITIAL = 64;
