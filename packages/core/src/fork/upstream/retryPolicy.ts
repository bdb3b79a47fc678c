// When and how long to wait before trying an upstream request again.

/** Defaults of the backoff: the first retry waits about `baseMs`, each next one twice as long, up to `maxMs`. */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** The most a `Retry-After` answer may make us wait (a provider asking for an hour is not obeyed). */
  retryAfterCapMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, maxMs: 10_000, retryAfterCapMs: 60_000 };

/**
 * Exponential backoff with jitter for retry number `retry` (1 for the first retry): a random delay
 * between half and all of min(maxMs, baseMs·2^(retry-1)), so that clients that failed together do
 * not come back together. A `Retry-After` delay, when given, is a floor.
 */
export function backoffDelay(retry: number, opts: BackoffOptions, retryAfterMs?: number, random = Math.random): number {
  const ceiling = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, retry - 1));
  const jittered = ceiling / 2 + random() * (ceiling / 2);
  if (retryAfterMs === undefined) return Math.round(jittered);
  // Honour the server's delay, plus a little jitter so that many waiting calls spread out.
  return Math.round(Math.min(retryAfterMs, opts.retryAfterCapMs) + random() * Math.min(opts.baseMs, 1000) * 0.25);
}

/**
 * A `Retry-After` header (RFC 9110 §10.2.3) in milliseconds: delay-seconds or an HTTP date
 * (relative to `now`). Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | undefined {
  if (header === null || header === undefined) return undefined;
  const text = header.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Whether a JSON-RPC error object means "slow down" rather than a real answer: -32016 and 429
 * (codes some providers use), -32005 (EIP-1474 "limit exceeded") unless its message speaks of a
 * query too large (an `eth_getLogs` range, a result count), or a message that says rate limit.
 */
export function isRateLimitError(error: { code?: unknown; message?: unknown }): boolean {
  const message = typeof error.message === 'string' ? error.message : '';
  if (error.code === -32016 || error.code === 429) return true;
  if (error.code === -32005)
    return !/range|results?\b|block|too large|size/i.test(message) || /rate|per second/i.test(message);
  return /rate.?limit|too many requests|compute units per second/i.test(message);
}

/** Whether an HTTP status is worth trying again: 429 (limited), 408 (timeout) and 5xx but 501 (not implemented). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || (status >= 500 && status !== 501 && status !== 505);
}
