import type { StoredReceipt } from '../chain/types.js';
import { toData } from '../util/hex.js';
import { PostingList } from './PostingList.js';

/**
 * Which blocks hold logs of an address, and which hold logs whose first topic is a given value
 * (the event signature), plus the list of every block with logs. eth_getLogs visits only the
 * blocks these lists name instead of testing the bloom of every block in its range.
 * Keys are lower-case 0x-hex, as filters are parsed.
 */
export class LogPostings {
  private readonly all = new PostingList();
  private readonly byAddress = new Map<string, PostingList>();
  private readonly byTopic0 = new Map<string, PostingList>();
  /**
   * The hex of the last address and first topic seen: logs in a row mostly share both (one
   * token's Transfer events), and comparing 20 or 32 bytes costs far less than writing out
   * their hex (~1-2 µs a string, twice per log on every commit and again on every revert).
   */
  private readonly addressHex = new LastHex();
  private readonly topicHex = new LastHex();

  /** Highest block with logs, or -1. */
  get last(): number {
    return this.all.last;
  }

  /** Adds block `n`'s logs; false when `n` is not above every block already held (out of order). */
  add(n: number, receipts: readonly StoredReceipt[]): boolean {
    let any = false;
    for (const r of receipts) {
      // Indexed reads, not `for (const [address, topics] of …)`: destructuring is the iterator
      // protocol per log in bytecode (more for V8 to run and compile on every block with logs).
      const logs = r.logs;
      for (let i = 0; i < logs.length; i++) {
        const address = logs[i][0];
        const topics = logs[i][1];
        if (!any) {
          if (this.all.last >= n) return false;
          this.all.add(n);
          any = true;
        }
        if (!listOf(this.byAddress, this.addressHex.of(address)).add(n)) return false;
        if (topics.length > 0 && !listOf(this.byTopic0, this.topicHex.of(topics[0])).add(n)) return false;
      }
    }
    return true;
  }

  /** Drops the blocks above `n` of the lists these receipts' logs touch (a revert's removed blocks). */
  dropAbove(n: number, removed: readonly (readonly StoredReceipt[])[]): void {
    this.all.dropAbove(n);
    for (const receipts of removed) {
      for (const r of receipts) {
        for (const [address, topics] of r.logs) {
          dropFrom(this.byAddress, this.addressHex.of(address), n);
          if (topics.length > 0) dropFrom(this.byTopic0, this.topicHex.of(topics[0]), n);
        }
      }
    }
  }

  /**
   * Blocks in from..to, ascending, that hold a log of one of `addresses` (any address when
   * empty) whose first topic is one of `topic0s` (any when null). A block named may still hold
   * no log matching the rest of a filter; a block not named holds none.
   */
  blocks(from: number, to: number, addresses: readonly string[], topic0s: readonly string[] | null): number[] {
    const byAddress = addresses.length > 0 ? union(this.byAddress, addresses, from, to) : undefined;
    if (byAddress !== undefined && byAddress.length === 0) return byAddress;
    const byTopic = topic0s !== null ? union(this.byTopic0, topic0s, from, to) : undefined;
    if (byAddress === undefined) return byTopic ?? this.all.range(from, to);
    return byTopic === undefined ? byAddress : intersect(byAddress, byTopic);
  }
}

/** `toData` of the bytes given, reusing the last answer when the bytes are the same. */
class LastHex {
  private bytes: Uint8Array = new Uint8Array(0);
  private hex = '0x';

  of(b: Uint8Array): string {
    const last = this.bytes;
    let same = b.length === last.length;
    for (let i = 0; same && i < b.length; i++) same = b[i] === last[i];
    if (!same) {
      this.hex = toData(b);
      // A copy: the caller's array may be a view into a buffer that is reused later.
      this.bytes = b.slice();
    }
    return this.hex;
  }
}

function listOf(map: Map<string, PostingList>, key: string): PostingList {
  let list = map.get(key);
  if (list === undefined) {
    list = new PostingList();
    map.set(key, list);
  }
  return list;
}

function dropFrom(map: Map<string, PostingList>, key: string, n: number): void {
  const list = map.get(key);
  if (list === undefined) return;
  list.dropAbove(n);
  // Reverts undo whole test cases: addresses they created must not pile up.
  if (list.length === 0) map.delete(key);
}

/** Blocks in from..to of any of the keys' lists, ascending, without repeats. */
function union(map: Map<string, PostingList>, keys: readonly string[], from: number, to: number): number[] {
  let out: number[] | undefined;
  for (const key of keys) {
    const list = map.get(key);
    if (list === undefined) continue;
    const part = list.range(from, to);
    out = out === undefined ? part : mergeSorted(out, part);
  }
  return out ?? [];
}

function mergeSorted(a: number[], b: number[]): number[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x < y) {
      out.push(x);
      i++;
    } else if (y < x) {
      out.push(y);
      j++;
    } else {
      out.push(x);
      i++;
      j++;
    }
  }
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

function intersect(a: number[], b: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x < y) i++;
    else if (y < x) j++;
    else {
      out.push(x);
      i++;
      j++;
    }
  }
  return out;
}
