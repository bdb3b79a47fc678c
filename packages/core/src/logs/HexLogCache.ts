import type { HexBlockLogs } from './hexBlockLogs.js';

/**
 * The hex logs of recent blocks (committed or read), keyed by block number, bounded by the
 * number of logs held (a block of 5,000 logs weighs what 5,000 blocks of one log do). The first
 * in goes first out: blocks come in as they are committed, so the newest stay, which is what a
 * dev chain's clients read; a hit does not move its block (a query over a thousand blocks would
 * pay a delete and a set for each). About 1.2 KiB a log when each block holds one ERC-20 Transfer
 * (heap after 3,000 such blocks, with and without the cache), so the default 20,000 logs is
 * some 24 MiB at most, less in fuller blocks.
 */
export class HexLogCache {
  private readonly map = new Map<number, HexBlockLogs>();
  private held = 0;

  constructor(private readonly maxLogs: number) {}

  get(n: number): HexBlockLogs | undefined {
    return this.map.get(n);
  }

  set(entry: HexBlockLogs): void {
    const weight = entry.logs.length;
    if (weight > this.maxLogs) return;
    const n = Number(entry.number);
    this.delete(n);
    while (this.held + weight > this.maxLogs) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
    this.map.set(n, entry);
    this.held += weight;
  }

  delete(n: number): void {
    const old = this.map.get(n);
    if (old === undefined) return;
    this.map.delete(n);
    this.held -= old.logs.length;
  }

  clear(): void {
    this.map.clear();
    this.held = 0;
  }

  /** Logs held. */
  get size(): number {
    return this.held;
  }
}
