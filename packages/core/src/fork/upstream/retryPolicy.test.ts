import { describe, expect, it } from 'vitest';
import { redactUrl } from './redactUrl.js';
import { DEFAULT_BACKOFF, backoffDelay, isRateLimitError, isRetryableStatus, parseRetryAfter } from './retryPolicy.js';

describe('parseRetryAfter (RFC 9110 §10.2.3)', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(' 0 ')).toBe(0);
  });
  it('reads an HTTP date relative to now, never negative', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  const opts = { baseMs: 100, maxMs: 1000, retryAfterCapMs: 5000 };
  it('doubles per retry, jittered between half and all of it, up to maxMs', () => {
    expect(backoffDelay(1, opts, undefined, () => 0)).toBe(50);
    expect(backoffDelay(1, opts, undefined, () => 1)).toBe(100);
    expect(backoffDelay(3, opts, undefined, () => 1)).toBe(400);
    expect(backoffDelay(10, opts, undefined, () => 1)).toBe(1000);
    expect(backoffDelay(10, opts, undefined, () => 0)).toBe(500);
  });
  it('waits at least Retry-After, capped', () => {
    expect(backoffDelay(1, opts, 2000, () => 0)).toBe(2000);
    expect(backoffDelay(1, opts, 2000, () => 1)).toBeGreaterThanOrEqual(2000);
    expect(backoffDelay(1, opts, 3_600_000, () => 0)).toBe(5000);
  });
  it('has defaults that start small', () => {
    expect(DEFAULT_BACKOFF.baseMs).toBeLessThanOrEqual(1000);
  });
});

describe('what is retried', () => {
  it('HTTP 429, 408 and 5xx (but 501/505) are retried; other 4xx are not', () => {
    expect([429, 408, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 501, 505].some(isRetryableStatus)).toBe(false);
  });
  it('rate-limit JSON-RPC errors are told from real answers', () => {
    expect(isRateLimitError({ code: -32005, message: 'rate limit exceeded' })).toBe(true);
    expect(isRateLimitError({ code: -32005, message: 'request rate exceeded' })).toBe(true);
    expect(isRateLimitError({ code: -32016, message: 'over rate limit' })).toBe(true);
    expect(isRateLimitError({ code: 429, message: 'Too Many Requests' })).toBe(true);
    expect(
      isRateLimitError({ code: -32000, message: 'Your app has exceeded its compute units per second capacity' }),
    ).toBe(true);
    // a real answer: an eth_getLogs query too large, invalid params, a revert
    expect(isRateLimitError({ code: -32005, message: 'query returned more than 10000 results' })).toBe(false);
    expect(isRateLimitError({ code: -32602, message: 'invalid argument 0' })).toBe(false);
    expect(isRateLimitError({ code: 3, message: 'execution reverted' })).toBe(false);
  });
});

describe('redactUrl', () => {
  it('drops credentials, the query and key-like path segments', () => {
    expect(redactUrl('https://user:pw@eth.example.com/rpc?apikey=s3cret')).toBe('https://eth.example.com/rpc?***');
    expect(redactUrl('https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef')).toBe(
      'https://mainnet.infura.io/v3/***',
    );
    expect(redactUrl('https://eth-mainnet.g.alchemy.com/v2/aB3dE5gH7jK9mN1pQ3sT5vX7')).toBe(
      'https://eth-mainnet.g.alchemy.com/v2/***',
    );
    expect(redactUrl('http://127.0.0.1:8545/')).toBe('http://127.0.0.1:8545/');
    expect(redactUrl('not a url')).toBe('<invalid url>');
  });
});
