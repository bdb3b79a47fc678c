/** How long an engine's close waits for this handler's answers in flight before going on. */
export const CLOSE_GRACE_MS = 2_000;

/** Counts requests being answered; `answered` resolves when none are left (or after a grace). */
export class InFlight {
  private count = 0;
  private idle: (() => void)[] = [];

  start(): void {
    this.count++;
  }

  end(): void {
    if (--this.count === 0) for (const fn of this.idle.splice(0)) fn();
  }

  answered(graceMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      // Waiting must never be what keeps a process alive.
      timer.unref();
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
