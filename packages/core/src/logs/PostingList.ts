/**
 * Block numbers in ascending order without repeats, in one growable Float64Array: 8 bytes a
 * block where a JS array of numbers past 2^31 would box each one. Blocks are only appended at
 * the top (a commit) and dropped from the top (a revert), so the list stays sorted for free.
 */
export class PostingList {
  private items = new Float64Array(4);
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** The highest block number held, or -1 when empty. */
  get last(): number {
    return this.count === 0 ? -1 : this.items[this.count - 1];
  }

  at(i: number): number {
    return this.items[i];
  }

  /** Appends `n`; a repeat of the last number is ignored. False when `n` is below the last one (out of order). */
  add(n: number): boolean {
    const c = this.count;
    if (c > 0) {
      const top = this.items[c - 1];
      if (top === n) return true;
      if (top > n) return false;
    }
    if (c === this.items.length) {
      const grown = new Float64Array(c * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[c] = n;
    this.count = c + 1;
    return true;
  }

  /** Drops every number above `n`. */
  dropAbove(n: number): void {
    let c = this.count;
    while (c > 0 && this.items[c - 1] > n) c--;
    this.count = c;
    // Give memory back when a revert left the list far smaller than its buffer.
    if (this.items.length > 64 && c < this.items.length >> 2) this.items = this.items.slice(0, c * 2);
  }

  /** Index of the first number ≥ n (binary search). */
  lowerBound(n: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid] < n) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The numbers in from..to (inclusive), ascending. */
  range(from: number, to: number): number[] {
    const out: number[] = [];
    for (let i = this.lowerBound(from); i < this.count; i++) {
      const v = this.items[i];
      if (v > to) break;
      out.push(v);
    }
    return out;
  }
}
