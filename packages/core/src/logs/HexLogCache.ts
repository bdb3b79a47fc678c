import type { HexBlockLogs } from './hexBlockLogs.js';

/**
 * The hex logs of recent blocks (committed or read), least recently used first out, bounded by the number
 * of logs held (a block of 5,000 logs weighs what 5,000 blocks of one log do). About 1.2 KiB
 * a log when each block holds one ERC-20 Transfer (measured: heap after 3,000 such blocks, with
 * and without the cache), so the default 20,000 logs is some 24 MiB at most, less in fuller blocks.
 */
export class HexLogCache {
  private readonly map = new Map<bigint, HexBlockLogs>();
  private held = 0;

  constructor(private readonly maxLogs: number) {}

  get(n: bigint): HexBlockLogs | undefined {
    const hit = this.map.get(n);
    if (hit !== undefined) {
      this.map.delete(n);
      this.map.set(n, hit);
    }
    return hit;
  }

  set(entry: HexBlockLogs): void {
    const weight = entry.logs.length;
    if (weight > this.maxLogs) return;
    this.delete(entry.number);
    while (this.held + weight > this.maxLogs) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
    this.map.set(entry.number, entry);
    this.held += weight;
  }

  delete(n: bigint): void {
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
