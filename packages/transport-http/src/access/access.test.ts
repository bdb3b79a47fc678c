import { describe, expect, it } from 'vitest';
import { AccessPolicy } from './AccessPolicy.js';
import { ApiKeySet, apiKeyProblem } from './apiKeys.js';
import { clientAddress } from './clientAddress.js';
import { checkRateLimit, RateLimiter } from './RateLimiter.js';

const KEY_A = 'key-aaaaaaaaaaaaaaaa';
const KEY_B = 'key-bbbbbbbbbbbbbbbb';

function clocked(rps: number, burst: number, maxClients?: number) {
  let now = 0;
  const limiter = new RateLimiter<string>({ requestsPerSecond: rps, burst }, maxClients, () => now);
  return { limiter, advance: (ms: number) => (now += ms) };
}

describe('RateLimiter (token bucket)', () => {
  it('allows a burst, then the sustained rate, and says how long to wait', () => {
    const { limiter, advance } = clocked(2, 3);
    expect([1, 2, 3].map(() => limiter.take('a', 1))).toEqual([0, 0, 0]);
    // Empty: one token comes back every 500 ms, so the wait rounds up to 1 s.
    expect(limiter.take('a', 1)).toBe(1);
    advance(499);
    expect(limiter.take('a', 1)).toBe(1);
    advance(1);
    expect(limiter.take('a', 1)).toBe(0);
    // Other clients have buckets of their own.
    expect(limiter.take('b', 3)).toBe(0);
  });

  it('counts a batch as its items and lets an over-burst batch through a full bucket into debt', () => {
    const { limiter, advance } = clocked(1, 5);
    expect(limiter.take('a', 10)).toBe(0); // 5 - 10 = -5 tokens
    advance(5_000);
    // Back to 0 after 5 s: one more token takes another second.
    expect(limiter.take('a', 1)).toBe(1);
    advance(1_000);
    expect(limiter.take('a', 1)).toBe(0);
    // Waiting for n tokens: 3 missing at 1/s = 3 s.
    expect(limiter.take('a', 3)).toBe(3);
  });

  it('forgets refilled buckets and never holds more than maxClients', () => {
    const { limiter, advance } = clocked(10, 10, 100);
    for (let i = 0; i < 100; i++) limiter.take(`c${i}`, 1);
    expect(limiter.size).toBe(100);
    limiter.take('new', 1);
    expect(limiter.size).toBe(100);
    // After the sweep interval every bucket has refilled: the next take sweeps them all away.
    advance(20_000);
    limiter.take('x', 1);
    expect(limiter.size).toBe(1);
  });

  it('peeks without taking or creating buckets', () => {
    const { limiter, advance } = clocked(1, 2);
    expect(limiter.peek('a')).toBe(0);
    expect(limiter.size).toBe(0);
    limiter.take('a', 2);
    expect(limiter.peek('a')).toBe(1);
    advance(1_000);
    expect(limiter.peek('a')).toBe(0);
    expect(limiter.take('a', 1)).toBe(0);
  });

  it('validates limits, naming the option', () => {
    expect(() => checkRateLimit({ requestsPerSecond: 0 }, 'rateLimit')).toThrow(/rateLimit.requestsPerSecond/);
    expect(() => checkRateLimit({ requestsPerSecond: 5, burst: 0.5 }, 'keyRateLimit')).toThrow(/keyRateLimit.burst/);
    expect(checkRateLimit({ requestsPerSecond: 2.5 }, 'x')).toEqual({ requestsPerSecond: 2.5, burst: 3 });
  });
});

describe('ApiKeySet', () => {
  it('finds keys by value and refuses others, including prefixes and extensions', () => {
    const set = new ApiKeySet([KEY_A, KEY_B, KEY_A]);
    expect(set.size).toBe(2);
    expect(set.indexOf(KEY_A)).toBe(0);
    expect(set.indexOf(KEY_B)).toBe(1);
    expect(set.indexOf(KEY_A.slice(0, -1))).toBe(-1);
    expect(set.indexOf(`${KEY_A}x`)).toBe(-1);
    expect(set.indexOf('')).toBe(-1);
  });

  it('refuses short keys and keys that are not one path segment, without quoting them', () => {
    expect(apiKeyProblem('short')).toMatch(/16 to 256 characters/);
    expect(apiKeyProblem('with/slash-aaaaaaaaaa')).toMatch(/letters, digits/);
    expect(() => new ApiKeySet(['secret-but-short'.slice(0, 10)])).toThrow(/apiKeys/);
    expect(apiKeyProblem('with/slash-aaaaaaaaaa')).not.toContain('slash');
  });
});

describe('clientAddress', () => {
  const head = (xff?: string | string[]) => ({
    headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
    socket: { remoteAddress: '10.0.0.1' },
  });
  it('uses the socket unless told to trust the proxy', () => {
    expect(clientAddress(head('1.2.3.4'), false)).toBe('10.0.0.1');
  });
  it('takes the address the proxy appended (the last), not what the client wrote', () => {
    expect(clientAddress(head('6.6.6.6, 1.2.3.4'), true)).toBe('1.2.3.4');
    expect(clientAddress(head(['6.6.6.6', '5.5.5.5 ,1.2.3.4 ']), true)).toBe('1.2.3.4');
    expect(clientAddress(head(''), true)).toBe('10.0.0.1');
    expect(clientAddress(head(), true)).toBe('10.0.0.1');
  });
});

describe('AccessPolicy', () => {
  it('recognises keyed paths: one segment under /api/v1/, a trailing slash allowed', () => {
    const p = new AccessPolicy({ apiKeys: [KEY_A] });
    expect(p.keyOf(`/api/v1/${KEY_A}`)).toBe(0);
    expect(p.keyOf(`/api/v1/${KEY_A}/`)).toBe(0);
    expect(p.keyOf('/api/v1/nope')).toBe(-1);
    expect(p.keyOf(`/api/v1/${KEY_A}/more`)).toBeUndefined();
    expect(p.keyOf('/api/v1/')).toBeUndefined();
    expect(p.keyOf('/')).toBeUndefined();
    expect(new AccessPolicy().keyOf(`/api/v1/${KEY_A}`)).toBeUndefined();
  });

  it('refuses unknown keys (401) and the open endpoint when a key is required', () => {
    const head = { headers: {}, socket: { remoteAddress: '127.0.0.1' } };
    const p = new AccessPolicy({ apiKeys: [KEY_A], requireApiKey: true });
    expect(p.admitRpc(head, -1, 1)).toMatchObject({ status: 401, code: -32000 });
    expect(p.admitRpc(head, undefined, 1)).toMatchObject({
      status: 401,
      message: expect.stringMatching(/requireApiKey/),
    });
    expect(p.admitRpc(head, 0, 1)).toBeUndefined();
    expect(() => new AccessPolicy({ requireApiKey: true })).toThrow(/requireApiKey needs/);
  });

  it('keeps separate buckets per key and per address, and a separate explorer limit', () => {
    const a = { headers: {}, socket: { remoteAddress: '127.0.0.1' } };
    const b = { headers: {}, socket: { remoteAddress: '127.0.0.2' } };
    const p = new AccessPolicy({
      apiKeys: [KEY_A, KEY_B],
      rateLimit: { requestsPerSecond: 0.001, burst: 1 },
      keyRateLimit: { requestsPerSecond: 0.001, burst: 2 },
      explorerRateLimit: { requestsPerSecond: 0.001, burst: 1 },
    });
    expect(p.admitRpc(a, undefined, 1)).toBeUndefined();
    const refused = p.admitRpc(a, undefined, 1);
    expect(refused).toMatchObject({ status: 429, code: -32005, message: expect.stringMatching(/\(rateLimit\)/) });
    expect(refused?.retryAfter).toBeGreaterThan(0);
    expect(p.admitRpc(b, undefined, 1)).toBeUndefined();
    // Keys are charged per key, whatever the address.
    expect(p.admitRpc(a, 0, 2)).toBeUndefined();
    expect(p.admitRpc(b, 0, 1)).toMatchObject({ status: 429, message: expect.stringMatching(/keyRateLimit/) });
    expect(p.admitRpc(a, 1, 1)).toBeUndefined();
    expect(p.admitRest(a)).toBeUndefined();
    expect(p.admitRest(a)).toMatchObject({ status: 429, message: expect.stringMatching(/explorerRateLimit/) });
  });
});
