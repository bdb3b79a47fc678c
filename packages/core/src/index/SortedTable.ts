import { objectArray } from '../chain/objectArray.js';

/** Keys per chunk before a chunk splits: small enough that a splice is a short memmove. */
const CHUNK = 256;

/**
 * An ordered map from byte-string keys (latin1 strings: one char per byte, so string order is
 * byte order) to values, kept as a list of sorted chunks. Insert, delete and lookup cost
 * O(log n + CHUNK) and an insert keeps one string and one slot — no tree node, no hash entry —
 * which is what a memory-only index needs: it keeps some thirty entries per block for good, and
 * every object it keeps is one the garbage collector walks again.
 */
export class SortedTable<V> {
  // Every list of keys and values is an array of objects from the start (objectArray): a table's
  // first key pushed into a literal [] changed its class, and set and the stores' apply, optimised
  // on the tables already written, deopted ("not a Smi") on each table a workload first wrote.
  private keys: string[][] = [objectArray()];
  private vals: V[][] = [objectArray()];
  /** Last key of each chunk (chunks are never empty, except a lone first chunk). */
  private lasts: string[] = objectArray();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: string): V | undefined {
    const c = this.chunkFor(key);
    if (c === this.keys.length) return undefined;
    const chunk = this.keys[c];
    const i = lowerBound(chunk, key);
    return chunk[i] === key ? this.vals[c][i] : undefined;
  }

  set(key: string, value: V): void {
    const n = this.lasts.length;
    // Most lists grow at their end (positions only increase): one comparison then.
    let c = n > 0 && key > this.lasts[n - 1] ? n - 1 : this.chunkFor(key);
    if (c === this.keys.length) c = this.keys.length - 1;
    const chunk = this.keys[c];
    const vals = this.vals[c];
    if (chunk.length === 0 || key > chunk[chunk.length - 1]) {
      chunk.push(key);
      vals.push(value);
    } else {
      const i = lowerBound(chunk, key);
      if (chunk[i] === key) {
        vals[i] = value;
        return;
      }
      chunk.splice(i, 0, key);
      vals.splice(i, 0, value);
    }
    this.count++;
    this.lasts[c] = chunk[chunk.length - 1];
    if (chunk.length > 2 * CHUNK) {
      this.keys.splice(c + 1, 0, chunk.splice(CHUNK));
      this.vals.splice(c + 1, 0, vals.splice(CHUNK));
      this.lasts.splice(c, 1, chunk[chunk.length - 1], this.keys[c + 1][this.keys[c + 1].length - 1]);
    }
  }

  delete(key: string): void {
    const n = this.lasts.length;
    if (n === 0 || key > this.lasts[n - 1]) return;
    // A revert deletes the newest keys first (the highest block numbers): the last key of the
    // last chunk is popped without a search or a splice.
    if (key === this.lasts[n - 1]) {
      const chunk = this.keys[n - 1];
      chunk.pop();
      this.vals[n - 1].pop();
      this.count--;
      if (chunk.length > 0) this.lasts[n - 1] = chunk[chunk.length - 1];
      else if (n > 1) {
        this.keys.pop();
        this.vals.pop();
        this.lasts.pop();
      } else this.lasts = objectArray();
      return;
    }
    const c = this.chunkFor(key);
    if (c === this.keys.length) return;
    const chunk = this.keys[c];
    const i = lowerBound(chunk, key);
    if (chunk[i] !== key) return;
    chunk.splice(i, 1);
    this.vals[c].splice(i, 1);
    this.count--;
    if (chunk.length > 0) this.lasts[c] = chunk[chunk.length - 1];
    else if (this.keys.length > 1) {
      this.keys.splice(c, 1);
      this.vals.splice(c, 1);
      this.lasts.splice(c, 1);
    } else this.lasts = objectArray();
  }

  clear(): void {
    this.keys = [objectArray()];
    this.vals = [objectArray()];
    this.lasts = objectArray();
    this.count = 0;
  }

  /** Index of the first chunk whose last key is ≥ key (chunks.length when none). */
  private chunkFor(key: string): number {
    let lo = 0;
    let hi = this.lasts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.lasts[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Keys in [from, to) — `from` inclusive unless `fromExclusive` — ascending or descending, at most `limit`. */
  range(from: string, fromExclusive: boolean, to: string, reverse: boolean, limit: number): [string, V][] {
    const out: [string, V][] = [];
    if (limit <= 0 || this.count === 0) return out;
    const below = (k: string) => (fromExclusive ? k <= from : k < from);
    if (!reverse) {
      let c = this.chunkFor(from);
      let i = c < this.keys.length ? lowerBound(this.keys[c], from) : 0;
      for (; c < this.keys.length; c++, i = 0) {
        const chunk = this.keys[c];
        for (; i < chunk.length; i++) {
          const k = chunk[i];
          if (k >= to) return out;
          if (below(k)) continue;
          out.push([k, this.vals[c][i]]);
          if (out.length === limit) return out;
        }
      }
      return out;
    }
    let c = Math.min(this.chunkFor(to), this.keys.length - 1);
    let i = lowerBound(this.keys[c], to) - 1;
    for (; c >= 0; c--, i = c >= 0 ? this.keys[c].length - 1 : -1) {
      const chunk = this.keys[c];
      for (; i >= 0; i--) {
        const k = chunk[i];
        if (below(k)) return out;
        out.push([k, this.vals[c][i]]);
        if (out.length === limit) return out;
      }
    }
    return out;
  }
}

/** First index in sorted `a` whose element is ≥ key. */
function lowerBound(a: string[], key: string): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// A chunk splits once every CHUNK keys: on a fresh node the first split came after set had been
// optimised, met code with no feedback, and V8 threw set (and the stores' apply it is inlined in)
// away to compile them again. A throwaway table split once here gives that branch its feedback
// (a class's methods share it between instances); nothing of it is kept.
{
  const primer = new SortedTable<Uint8Array>();
  const value = new Uint8Array(0);
  for (let n = 0; n <= 2 * CHUNK; n++) primer.set(String.fromCharCode(n >> 8, n & 0xff), value);
}
