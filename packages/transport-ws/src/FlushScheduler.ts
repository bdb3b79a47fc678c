/** Something with queued notifications to write. */
export interface Flushable {
  flush(): void;
}

/**
 * Decides when queued notifications leave, for every connection of an endpoint at once.
 * After a quiet spell the first batch goes at the end of the current tick, so a lone event
 * is delivered at once; while events keep coming, at most one write per connection per
 * `intervalMs`. One write per connection is one syscall: a block that reaches 100 clients
 * costs 100 of them, and under a burst of blocks batching them is what keeps the chain fast.
 */
export class FlushScheduler {
  private readonly due = new Set<Flushable>();
  private lastFlush = Number.NEGATIVE_INFINITY;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly intervalMs: number) {}

  request(c: Flushable): void {
    this.due.add(c);
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = this.lastFlush + this.intervalMs - performance.now();
    if (wait <= 0) {
      process.nextTick(this.run);
    } else {
      this.timer = setTimeout(this.run, wait);
      // Delivery must never be what keeps a process alive.
      this.timer.unref();
    }
  }

  /** Writes everything now (a connection about to answer a request, the endpoint closing). */
  private readonly run = (): void => {
    this.scheduled = false;
    this.timer = undefined;
    this.lastFlush = performance.now();
    const due = [...this.due];
    this.due.clear();
    for (const c of due) c.flush();
  };

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.due.clear();
  }
}
