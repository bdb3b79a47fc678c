// The upstream side of a fork (#17) against a real node: an Ashlar node over HTTP, seeded, forked
// at block N, then changed after N; a fault-injecting proxy sits between it and the client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAshlarError, toRpcError } from '../packages/core/src/errors/index.js';
import {
  type ForkCache,
  ForkStateSource,
  UpstreamClient,
  type UpstreamOptions,
  diskForkCache,
  memoryForkCache,
  probeUpstream,
} from '../packages/core/src/fork/upstream/index.js';
import { type Fault, type FaultProxy, startFaultProxy } from './helpers/faultProxy.js';
import { CODE, CONTRACT, RICH, bytes, hexOf, word } from './helpers/forkSeed.js';
import { type TestNode, startNode } from './helpers/node.js';

const slot = (n: bigint): Uint8Array => bytes(word(n));

let upstream: TestNode;
let proxy: FaultProxy;
/** The fork block: the upstream's state as seeded. */
let N: bigint;
const tmp = mkdtempSync(join(tmpdir(), 'ashlar-fork-upstream-'));

const rpc = <T>(method: string, params: unknown[] = []): Promise<T> =>
  upstream.kernel.request<T>({ method, params }) as Promise<T>;

beforeAll(async () => {
  upstream = await startNode();
  await rpc('hardhat_setBalance', [RICH, '0x3039']);
  await rpc('hardhat_setNonce', [RICH, '0x7']);
  await rpc('hardhat_setCode', [CONTRACT, CODE]);
  await rpc('hardhat_setStorageAt', [CONTRACT, '0x0', word(42n)]);
  await rpc('hardhat_setStorageAt', [CONTRACT, '0x10', word(0xbeefn)]);
  await rpc('evm_mine');
  N = BigInt(await rpc<string>('eth_blockNumber'));
  // The upstream moves on after N: the fork must not see this.
  await rpc('hardhat_setBalance', [RICH, '0x1']);
  await rpc('hardhat_setStorageAt', [CONTRACT, '0x0', word(0x99n)]);
  await rpc('evm_mine');
  proxy = await startFaultProxy(upstream.url);
});

afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const clients: UpstreamClient[] = [];
const caches: ForkCache[] = [];
beforeEach(() => proxy.reset());
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const c of caches.splice(0)) await c.close();
});

/** A client through the proxy with short backoffs (the delays are not what these tests check). */
function client(opts: Partial<UpstreamOptions> = {}): UpstreamClient {
  const c = new UpstreamClient({ url: proxy.url, backoff: { baseMs: 5, maxMs: 20, retryAfterCapMs: 5000 }, ...opts });
  clients.push(c);
  return c;
}

function source(
  c: UpstreamClient = client(),
  cache: ForkCache = memoryForkCache({ maxEntries: 1000 }),
): ForkStateSource {
  caches.push(cache);
  return new ForkStateSource(c, N, cache);
}

function logger() {
  const lines = { info: [] as string[], warn: [] as string[] };
  return { lines, info: (m: string) => lines.info.push(m), warn: (m: string) => lines.warn.push(m) };
}

/** The JSON-RPC body of the proxy's i-th request. */
function bodyOf(i: number): unknown {
  const record = proxy.records[i];
  if (record === undefined) throw new Error(`the proxy saw no request ${i}`);
  return record.body;
}

const methodsOf = (body: unknown): string[] => (Array.isArray(body) ? body : [body]).map((c) => c.method);

/** What the fork must read for RICH and CONTRACT at N (seeded above). */
async function expectStateAtN(s: ForkStateSource): Promise<void> {
  const rich = await s.getAccount(bytes(RICH));
  expect(rich).toEqual({ balance: 12345n, nonce: 7n, code: new Uint8Array() });
}

describe('reads at the fork block', () => {
  it('a first touch of an account is one HTTP request: a batch of balance, nonce and code at N', async () => {
    const s = source();
    await expectStateAtN(s);
    expect(proxy.counters.requests).toBe(1);
    const body = proxy.records[0]?.body as { method: string; params: string[] }[];
    expect(methodsOf(body).sort()).toEqual(['eth_getBalance', 'eth_getCode', 'eth_getTransactionCount']);
    for (const call of body) expect(call.params).toEqual([RICH, `0x${N.toString(16)}`]);
    const contract = await s.getAccount(bytes(CONTRACT));
    expect(hexOf(contract.code)).toBe(CODE);
    expect(proxy.counters.requests).toBe(2);
    expect(s.stats.upstreamStateCalls).toBe(6);
  });

  it('storage comes from N, not from the upstream head', async () => {
    const s = source();
    expect(hexOf(await s.getStorage(bytes(CONTRACT), slot(0n)))).toBe(word(42n));
    expect(hexOf(await s.getStorage(bytes(CONTRACT), slot(0x10n)))).toBe(word(0xbeefn));
    expect(hexOf(await s.getStorage(bytes(CONTRACT), slot(5n)))).toBe(word(0n));
    // the upstream's head has moved on
    expect(await rpc('eth_getStorageAt', [CONTRACT, '0x0', 'latest'])).toBe(word(0x99n));
    const params = (bodyOf(1) as { params: string[] }).params;
    expect(params).toEqual([CONTRACT, '0x10', `0x${N.toString(16)}`]);
  });

  it('calls in one tick go as one batch, at most maxBatchSize calls each; a full batch leaves at once', async () => {
    const s = source(client({ maxBatchSize: 50 }));
    const words = await Promise.all(
      Array.from({ length: 120 }, (_, i) => s.getStorage(bytes(CONTRACT), slot(BigInt(i)))),
    );
    expect(hexOf(words[0] as Uint8Array)).toBe(word(42n));
    expect(hexOf(words[0x10] as Uint8Array)).toBe(word(0xbeefn));
    expect(words.filter((w) => hexOf(w) === word(0n))).toHaveLength(118);
    expect(proxy.records.map((r) => (r.body as unknown[]).length).sort((a, b) => a - b)).toEqual([20, 50, 50]);
  });

  it('keeps its connection alive: sequential reads share one TCP connection', async () => {
    const s = source();
    for (let i = 0n; i < 20n; i++) await s.getStorage(bytes(CONTRACT), slot(i));
    expect(proxy.counters.requests).toBe(20);
    // at most one new connection (fetch's pool may still hold one from an earlier test)
    expect(proxy.counters.connections).toBeLessThanOrEqual(1);
  });

  it('concurrent reads of one account share one upstream read', async () => {
    const s = source();
    await Promise.all([s.getAccount(bytes(RICH)), s.getAccount(bytes(RICH)), s.getAccount(bytes(RICH))]);
    expect(proxy.counters.calls).toBe(3);
  });

  it('probeUpstream reads the chain id and head in one request', async () => {
    const c = client();
    const probe = await probeUpstream(c);
    expect(probe).toEqual({ chainId: BigInt(await rpc<string>('eth_chainId')), latest: N + 1n });
    expect(proxy.counters.requests).toBe(1);
  });

  it('sends the configured headers; credentials in the URL become basic authentication', async () => {
    const url = proxy.url.replace('http://', 'http://alice:pw@');
    const c = client({ url, headers: { 'x-api-key': 'k1' } });
    await c.request('eth_chainId', []);
    expect(proxy.records[0]?.headers['x-api-key']).toBe('k1');
    expect(proxy.records[0]?.headers.authorization).toBe(`Basic ${Buffer.from('alice:pw').toString('base64')}`);
  });
});

describe('upstream faults are retried and results stay correct', () => {
  const faults: [string, Fault, Partial<UpstreamOptions>][] = [
    ['HTTP 503', { kind: 'status', status: 503 }, {}],
    ['HTTP 429 without Retry-After', { kind: 'status', status: 429 }, {}],
    ['a dropped connection', { kind: 'drop' }, {}],
    ['an answer slower than the timeout', { kind: 'slow', ms: 1500 }, { timeoutMs: 300 }],
    ['a JSON-RPC rate-limit error (-32005)', { kind: 'rpcError', code: -32005, message: 'rate limit exceeded' }, {}],
    ['a JSON-RPC rate-limit error (-32016)', { kind: 'rpcError', code: -32016, message: 'over rate limit' }, {}],
  ];
  it.each(faults)('%s', async (_name, fault, opts) => {
    const c = client(opts);
    const s = source(c);
    proxy.enqueue(fault);
    await expectStateAtN(s);
    expect(proxy.counters.faults).toBe(1);
    expect(proxy.counters.requests).toBe(2);
    expect(c.stats.retries).toBe(1);
    expect(c.stats.failures).toBe(0);
    // the retry carried the same three calls
    expect(methodsOf(proxy.records[1]?.body).sort()).toEqual(methodsOf(proxy.records[0]?.body).sort());
  });

  it('a partial, misordered batch answer is matched by id and the missing calls are sent again', async () => {
    const c = client();
    const s = source(c);
    proxy.enqueue({ kind: 'partial', keep: 1 });
    await expectStateAtN(s);
    expect(proxy.counters.requests).toBe(2);
    expect(bodyOf(1) as unknown[]).toHaveLength(2);
    const misordered = source(client());
    proxy.enqueue({ kind: 'partial', keep: 3 });
    const contract = await misordered.getAccount(bytes(CONTRACT));
    expect(hexOf(contract.code)).toBe(CODE);
    expect(proxy.counters.requests).toBe(3);
  });

  it('honours Retry-After: the retry comes no sooner than asked (proxy timestamps)', async () => {
    const c = client();
    const s = source(c);
    proxy.enqueue({ kind: 'status', status: 429, retryAfter: '1' });
    await expectStateAtN(s);
    const [limited, retry] = proxy.records;
    expect(limited?.fault).toBe('status');
    expect((retry?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it('a Retry-After holds back the other calls of the client too', async () => {
    const c = client();
    proxy.enqueue({ kind: 'status', status: 429, retryAfter: '1' });
    const first = c.request<string>('eth_chainId', []);
    while (c.stats.rateLimited === 0) await new Promise((r) => setTimeout(r, 5));
    const second = await c.request<string>('eth_blockNumber', []);
    expect(BigInt(second)).toBe(N + 1n);
    expect(await first).toBe(await rpc<string>('eth_chainId'));
    const limitedAt = proxy.records[0]?.at ?? 0;
    expect(proxy.records).toHaveLength(3);
    for (const later of proxy.records.slice(1)) expect(later.at - limitedAt).toBeGreaterThanOrEqual(1000);
  });

  it('logs one line when the upstream starts limiting, not one per retry', async () => {
    const log = logger();
    const c = client({ logger: log });
    const s = source(c);
    proxy.enqueue(
      { kind: 'status', status: 429 },
      { kind: 'status', status: 429 },
      { kind: 'rpcError', code: -32005, message: 'rate limit exceeded' },
    );
    await expectStateAtN(s);
    expect(c.stats.rateLimited).toBe(3);
    expect(c.stats.retries).toBe(3);
    expect(log.lines.warn).toHaveLength(1);
    expect(log.lines.warn[0]).toMatch(/upstream http:\/\/127\.0\.0\.1:\d+\/ is rate limiting/);
  });

  it('falls back to single calls when the upstream refuses batches', async () => {
    const log = logger();
    const c = client({ logger: log });
    const s = source(c);
    proxy.refuseBatches(0);
    await expectStateAtN(s);
    const contract = await s.getAccount(bytes(CONTRACT));
    expect(hexOf(contract.code)).toBe(CODE);
    // one refused batch, then every call alone
    expect(proxy.records.map((r) => Array.isArray(r.body))).toEqual([true, false, false, false, false, false, false]);
    expect(log.lines.warn).toEqual([expect.stringMatching(/refuses JSON-RPC batches/)]);
  });

  it('halves the batch size when the upstream refuses batches above a size', async () => {
    const log = logger();
    const c = client({ logger: log, maxBatchSize: 50, concurrency: 1 });
    const s = source(c);
    proxy.refuseBatches(10);
    const words = await Promise.all(
      Array.from({ length: 40 }, (_, i) => s.getStorage(bytes(CONTRACT), slot(BigInt(i)))),
    );
    expect(hexOf(words[0x10] as Uint8Array)).toBe(word(0xbeefn));
    // 40 refused, 20 refused, then batches of 10
    const sizes = proxy.records.map((r) => (Array.isArray(r.body) ? r.body.length : 1));
    expect(sizes).toEqual([40, 20, 10, 10, 10, 10]);
    expect(log.lines.warn).toHaveLength(2);
    expect(c.stats.failures).toBe(0);
  });
});

describe('failures', () => {
  it('after the retries, the error names the upstream (without secrets) and the request, and maps to -32000', async () => {
    const url = `${proxy.url.replace('http://', 'http://bob:hunter2@')}?apikey=s3cret`;
    const c = client({ url, retries: 2 });
    const s = source(c);
    proxy.always({ kind: 'status', status: 503 });
    const error = await s.getStorage(bytes(CONTRACT), slot(0x10n)).catch((e: unknown) => e);
    expect(isAshlarError(error)).toBe(true);
    const e = error as Error & { code: string; data: Record<string, unknown> };
    expect(e.code).toBe('ASHLAR_ERR_FORK_UPSTREAM');
    expect(e.message).toBe(
      `upstream ${proxy.url}?*** failed eth_getStorageAt(${CONTRACT},0x10,0x${N.toString(16)}) after 2 retries: HTTP 503`,
    );
    expect(e.message).not.toMatch(/hunter2|s3cret|bob/);
    expect(e.data).toMatchObject({ method: 'eth_getStorageAt', attempts: 3, cause: 'HTTP 503' });
    expect(toRpcError(e).code).toBe(-32000);
    expect(proxy.counters.requests).toBe(3);
    expect(c.stats.failures).toBe(1);

    // the client keeps serving once the upstream is back, and the failure was not cached
    proxy.always(undefined);
    expect(hexOf(await s.getStorage(bytes(CONTRACT), slot(0x10n)))).toBe(word(0xbeefn));
    expect(proxy.counters.requests).toBe(4);
    expect(s.stats.cacheHits).toBe(0);
    await s.getStorage(bytes(CONTRACT), slot(0x10n));
    expect(proxy.counters.requests).toBe(4);
    expect(s.stats.cacheHits).toBe(1);
  });

  it('an HTTP error that is an answer (401) is not retried', async () => {
    const c = client();
    proxy.enqueue({ kind: 'status', status: 401, body: 'invalid api key' });
    await expect(c.request('eth_chainId', [])).rejects.toThrow(
      /^upstream http:\/\/127\.0\.0\.1:\d+\/ failed eth_chainId\(\): HTTP 401: invalid api key$/,
    );
    expect(proxy.counters.requests).toBe(1);
  });

  it('an upstream that refuses connections fails after the retries, naming the cause', async () => {
    const closed = await startFaultProxy(upstream.url);
    const url = closed.url;
    await closed.close();
    const c = client({ url, retries: 1 });
    await expect(c.request('eth_chainId', [])).rejects.toThrow(
      /failed eth_chainId\(\) after 1 retry: connection error: ECONNREFUSED/,
    );
    expect(c.stats).toMatchObject({ httpRequests: 2, retries: 1, failures: 1 });
  });

  it('a real error answer is not retried', async () => {
    const c = client();
    const error = (await c.request('eth_getBalance', ['0x1234', 'latest']).catch((e: unknown) => e)) as Error & {
      data: { upstreamError: { code: number } };
    };
    expect(error.message).toMatch(
      /^upstream http:\/\/127\.0\.0\.1:\d+\/ answered eth_getBalance\(0x1234,latest\) with error -32602: /,
    );
    expect(error.data.upstreamError.code).toBe(-32602);
    expect(proxy.counters.requests).toBe(1);
    expect(c.stats.retries).toBe(0);
  });

  it('an error is never cached: the next read asks the upstream again', async () => {
    const cache = memoryForkCache({ maxEntries: 100 });
    const s = source(client({ retries: 0 }), cache);
    proxy.enqueue({ kind: 'status', status: 502 });
    await expect(s.getAccount(bytes(RICH))).rejects.toThrow(/failed eth_get\w+\(0x1111.* HTTP 502/);
    await expectStateAtN(s);
    expect(proxy.counters.requests).toBe(2);
    expect(s.stats.cacheHits).toBe(0);
  });

  it('close aborts requests in flight; later calls reject clearly', async () => {
    const c = client();
    proxy.enqueue({ kind: 'slow', ms: 2000 });
    const pending = c.request('eth_chainId', []).catch((e: unknown) => e);
    // wait until the proxy has the request
    while (proxy.counters.requests === 0) await new Promise((r) => setTimeout(r, 5));
    await c.close();
    expect(((await pending) as Error).message).toMatch(
      /^upstream http:\/\/127\.0\.0\.1:\d+\/ is closed: eth_chainId\(\) was not answered/,
    );
    await expect(c.request('eth_blockNumber', [])).rejects.toThrow(/is closed: eth_blockNumber\(\)/);
  });
});

describe('bounded concurrency', () => {
  it('never has more than `concurrency` HTTP requests in flight', async () => {
    const c = client({ concurrency: 2, maxBatchSize: 1 });
    proxy.always({ kind: 'slow', ms: 30 });
    const s = source(c);
    const words = await Promise.all(
      Array.from({ length: 10 }, (_, i) => s.getStorage(bytes(CONTRACT), slot(BigInt(i)))),
    );
    expect(hexOf(words[0] as Uint8Array)).toBe(word(42n));
    expect(proxy.counters.requests).toBe(10);
    expect(proxy.counters.maxInFlight).toBe(2);
    expect(c.stats.maxInFlight).toBe(2);
  });
});

describe('cache', () => {
  it('a damaged entry counts as a miss: the upstream is asked again and the entry rewritten', async () => {
    const cache = memoryForkCache({ maxEntries: 100 });
    const damaged: ForkCache = {
      get: async (key) => ((await cache.get(key)) === undefined ? undefined : Uint8Array.of(1, 2, 3)),
      put: (key, value) => cache.put(key, value),
      close: () => cache.close(),
    };
    const first = source(client(), damaged);
    await first.getStorage(bytes(CONTRACT), slot(0n));
    expect(hexOf(await first.getStorage(bytes(CONTRACT), slot(0n)))).toBe(word(42n));
    expect(first.stats).toMatchObject({ cacheHits: 0, cacheReadFailures: 1, upstreamStateCalls: 2 });
    // the rewritten entry is whole
    const second = source(client(), cache);
    expect(hexOf(await second.getStorage(bytes(CONTRACT), slot(0n)))).toBe(word(42n));
    expect(second.stats.cacheHits).toBe(1);
  });

  it('a warm disk cache answers a restart with no upstream request', async () => {
    const dir = join(tmp, 'warm');
    const chainId = BigInt(await rpc<string>('eth_chainId'));
    const read = async (s: ForkStateSource) => [
      await s.getAccount(bytes(RICH)),
      await s.getAccount(bytes(CONTRACT)),
      hexOf(await s.getStorage(bytes(CONTRACT), slot(0n))),
      hexOf(await s.getStorage(bytes(CONTRACT), slot(0x10n))),
      hexOf(await s.getStorage(bytes(CONTRACT), slot(7n))),
    ];
    const cold = await diskForkCache({ chainId, blockNumber: N, dir, maxEntries: 1000 });
    const first = await read(new ForkStateSource(client(), N, cold));
    await cold.close();
    expect(proxy.counters.requests).toBe(5);

    proxy.reset();
    const warm = await diskForkCache({ chainId, blockNumber: N, dir, maxEntries: 1000 });
    caches.push(warm);
    const s = new ForkStateSource(client(), N, warm);
    expect(await read(s)).toEqual(first);
    expect(first[2]).toBe(word(42n));
    expect(proxy.counters.requests).toBe(0);
    expect(s.stats).toMatchObject({ upstreamStateCalls: 0, cacheHits: 5 });
  });
});
