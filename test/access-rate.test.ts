// Issue #8, per-client rate limits (spec §7.1, §8): token buckets per client address on the open
// endpoints (HTTP and WebSocket share one), per key on keyed endpoints, a separate one for the
// explorer; batch items count as requests; 429 + Retry-After + a JSON-RPC error body over HTTP,
// an error per request over WebSocket; X-Forwarded-For only with trustProxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessNode, call, openWs, post, startAccessNode, wsAsk } from './helpers/access.js';

const KEY = 'rate-key-0123456789abcdef';
// So slow that no token comes back while a test runs: every count below is exact.
const SLOW = 0.001;

/** A distinct client per test, through X-Forwarded-For (the node trusts it here). */
let clients = 0;
const nextClient = () => ({ 'x-forwarded-for': `198.51.100.${++clients}` });

describe('rate limits', () => {
  let node: AccessNode;
  beforeAll(async () => {
    node = await startAccessNode({
      access: {
        apiKeys: [KEY],
        trustProxy: true,
        rateLimit: { requestsPerSecond: SLOW, burst: 3 },
        keyRateLimit: { requestsPerSecond: SLOW, burst: 5 },
        explorerRateLimit: { requestsPerSecond: SLOW, burst: 2 },
      },
    });
  });
  afterAll(() => node.close());

  it('answers past the burst with 429, Retry-After and a JSON-RPC error body', async () => {
    const headers = nextClient();
    for (let i = 0; i < 3; i++) expect((await post(node.url, call('eth_chainId'), { headers })).status).toBe(200);
    const r = await post(node.url, call('eth_chainId'), { headers });
    expect(r.status).toBe(429);
    // One token every 1000 s.
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(999);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32005,
        message: expect.stringMatching(
          /^rate limit exceeded: .*burst 3 per client address \(rateLimit\); retry after \d+ s$/,
        ),
      },
    });
    // Another client is not affected.
    expect((await post(node.url, call('eth_chainId'), { headers: nextClient() })).status).toBe(200);
  });

  it('counts each item of a batch', async () => {
    const headers = nextClient();
    const batch = [1, 2, 3].map((i) => call('eth_chainId', [], i));
    expect((await post(node.url, batch, { headers })).status).toBe(200);
    expect((await post(node.url, call('eth_chainId'), { headers })).status).toBe(429);
    const fresh = nextClient();
    expect((await post(node.url, [...batch, call('eth_chainId', [], 4)], { headers: fresh })).status).toBe(200);
    // The over-burst batch passed a full bucket and left it in debt.
    expect((await post(node.url, call('eth_chainId'), { headers: fresh })).status).toBe(429);
  });

  it('ignores X-Forwarded-For unless trustProxy is set', async () => {
    const plain = await startAccessNode({ access: { rateLimit: { requestsPerSecond: SLOW, burst: 2 } } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await post(plain.url, call('eth_chainId'), { headers: nextClient() })).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await plain.close();
    }
  });

  it('shares the bucket with WebSocket and answers each refused request under its id', async () => {
    const headers = nextClient();
    const opened = await openWs(node.wsUrl, { headers });
    if (!('ws' in opened)) throw new Error(`refused: ${opened.status}`);
    const { ws } = opened;
    // The upgrade took one token of three; two requests are left, then HTTP finds the bucket empty too.
    expect(await wsAsk(ws, call('eth_chainId', [], 'a'))).toMatchObject({ id: 'a', result: '0x7a69' });
    expect(await wsAsk(ws, call('eth_chainId', [], 'b'))).toMatchObject({ id: 'b', result: '0x7a69' });
    expect(await wsAsk(ws, call('eth_chainId', [], 'c'))).toMatchObject({ id: 'c', error: { code: -32005 } });
    expect((await post(node.url, call('eth_chainId'), { headers })).status).toBe(429);
    const batch = (await wsAsk(ws, [
      call('eth_chainId', [], 1),
      { jsonrpc: '2.0', method: 'eth_chainId' },
      call('x', [], 2),
    ])) as {
      id: number;
      error: { code: number };
    }[];
    // Two errors: the notification in the middle gets no answer, as ever.
    expect(batch.map((r) => [r.id, r.error.code])).toEqual([
      [1, -32005],
      [2, -32005],
    ]);
    // The connection stays usable (and refused) rather than being cut.
    expect(ws.readyState).toBe(ws.OPEN);
    ws.close();
    // A new upgrade from the empty bucket is refused with 429.
    expect(await openWs(node.wsUrl, { headers })).toMatchObject({
      status: 429,
      headers: { 'retry-after': expect.any(String) },
    });
  });

  it('limits keyed endpoints per key, whatever the address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await post(`${node.url}/api/v1/${KEY}`, call('eth_chainId'), { headers: nextClient() })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const r = await post(`${node.url}/api/v1/${KEY}`, call('eth_chainId'));
    expect(r.json).toMatchObject({
      error: { code: -32005, message: expect.stringContaining('per API key (keyRateLimit)') },
    });
    expect(r.text).not.toContain(KEY);
  });

  it('gives the explorer its own limit, with a Blockscout-style body', async () => {
    const headers = nextClient();
    for (let i = 0; i < 2; i++) expect((await fetch(`${node.url}/api/v2/blocks`, { headers })).status).toBe(200);
    const res = await fetch(`${node.url}/api/v2/stats`, { headers });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({ message: expect.stringMatching(/^Too many requests: .*\(explorerRateLimit\)/) });
    // JSON-RPC is a separate bucket.
    expect((await post(node.url, call('eth_chainId'), { headers })).status).toBe(200);
  });
});
