/** Requests per second a client may sustain, and how many it may send at once after a quiet spell. */
export interface RateLimit {
  /** Sustained rate (tokens added per second); must be positive. */
  requestsPerSecond: number;
  /** Bucket size: the most requests allowed in a burst (default: one second's worth, at least 1). */
  burst?: number;
}

interface Bucket {
  tokens: number;
  /** performance.now() of the last refill. */
  stamp: number;
}

/** Idle buckets are looked for at most this often: a sweep is O(buckets), spread over this time. */
const SWEEP_EVERY_MS = 10_000;

/** Validates a limit once, naming the option at fault. */
export function checkRateLimit(limit: RateLimit, name: string): Required<RateLimit> {
  const rps = limit.requestsPerSecond;
  if (typeof rps !== 'number' || !Number.isFinite(rps) || rps <= 0) {
    throw new TypeError(`transport-http: ${name}.requestsPerSecond must be a positive number, got ${String(rps)}`);
  }
  const burst = limit.burst ?? Math.max(1, Math.ceil(rps));
  if (!Number.isSafeInteger(burst) || burst < 1) {
    throw new TypeError(`transport-http: ${name}.burst must be a positive integer, got ${String(limit.burst)}`);
  }
  return { requestsPerSecond: rps, burst };
}

/**
 * Token buckets, one per client. `take` is O(1) and allocates nothing once a client has its
 * bucket: two numbers are updated in place. Buckets do not grow without bound: one that has
 * refilled is indistinguishable from a new one, so sweeps drop it; past `maxClients` the oldest
 * is dropped too.
 */
export class RateLimiter<K> {
  private readonly buckets = new Map<K, Bucket>();
  private readonly perMs: number;
  private readonly burst: number;
  private lastSweep: number;

  constructor(
    limit: Required<RateLimit>,
    private readonly maxClients = 100_000,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.perMs = limit.requestsPerSecond / 1000;
    this.burst = limit.burst;
    this.lastSweep = this.now();
  }

  /** Buckets held (for tests and stats). */
  get size(): number {
    return this.buckets.size;
  }

  /**
   * Charges `n` requests to `client`: 0 when allowed, else the whole seconds to wait. A batch
   * larger than the burst passes on a full bucket and leaves it in debt, so it is neither
   * refused forever nor free.
   */
  take(client: K, n: number): number {
    const now = this.now();
    if (now - this.lastSweep > SWEEP_EVERY_MS) this.sweep(now);
    let b = this.buckets.get(client);
    if (b === undefined) {
      if (this.buckets.size >= this.maxClients) this.evictOldest();
      b = { tokens: this.burst, stamp: now };
      this.buckets.set(client, b);
    } else {
      const refilled = b.tokens + (now - b.stamp) * this.perMs;
      b.tokens = refilled < this.burst ? refilled : this.burst;
      b.stamp = now;
    }
    const need = n < this.burst ? n : this.burst;
    if (b.tokens >= need) {
      b.tokens -= n;
      return 0;
    }
    return Math.max(1, Math.ceil((need - b.tokens) / this.perMs / 1000));
  }

  /**
   * Would `client` be refused even a single request? 0 when not (unknown clients have a full
   * bucket), else the seconds to wait. Takes nothing and creates no bucket: a cheap check before
   * a body is read, whose real cost (a batch's length) is charged once it is known.
   */
  peek(client: K): number {
    const b = this.buckets.get(client);
    if (b === undefined) return 0;
    const tokens = b.tokens + (this.now() - b.stamp) * this.perMs;
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000));
  }

  /** Drops the buckets that are full again: forgetting them changes nothing. */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [client, b] of this.buckets) {
      if (b.tokens + (now - b.stamp) * this.perMs >= this.burst) this.buckets.delete(client);
    }
  }

  private evictOldest(): void {
    this.sweep(this.now());
    if (this.buckets.size < this.maxClients) return;
    const oldest = this.buckets.keys().next();
    if (!oldest.done) this.buckets.delete(oldest.value);
  }
}
