// Wire edge cases with a scripted fetch (the faults of a real HTTP upstream are in test/fork-upstream.test.ts).
import { describe, expect, it, vi } from 'vitest';
import { UpstreamClient } from './UpstreamClient.js';

type Script = (body: unknown, n: number) => Response | Promise<Response>;

function scripted(script: Script): { client: UpstreamClient; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const fetchImpl = (async (_url: unknown, init?: RequestInit) => {
    const body: unknown = JSON.parse(String(init?.body));
    bodies.push(body);
    return script(body, bodies.length);
  }) as typeof fetch;
  const client = new UpstreamClient({
    url: 'http://upstream.test/',
    fetch: fetchImpl,
    retries: 2,
    backoff: { baseMs: 1, maxMs: 2 },
  });
  return { client, bodies };
}

const json = (value: unknown, status = 200): Response =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

describe('UpstreamClient answers', () => {
  it("takes a lone call's answer whatever its id (proxies that answer id null)", async () => {
    const { client } = scripted(() => json({ jsonrpc: '2.0', id: null, result: '0x1' }));
    await expect(client.request('eth_chainId', [])).resolves.toBe('0x1');
  });

  it('matches batch answers by id, numbers or strings', async () => {
    const { client, bodies } = scripted((body) =>
      json((body as { id: number }[]).map((c) => ({ jsonrpc: '2.0', id: String(c.id), result: `r${c.id}` })).reverse()),
    );
    const [a, b] = await Promise.all([client.request('m', []), client.request('m', [])]);
    expect(bodies).toHaveLength(1);
    const ids = (bodies[0] as { id: number }[]).map((c) => c.id);
    expect([a, b]).toEqual(ids.map((id) => `r${id}`));
  });

  it('retries an answer that is not JSON (an HTML error page with status 200)', async () => {
    const { client } = scripted((body, n) =>
      n === 1
        ? new Response('<html>bad gateway</html>')
        : json({ jsonrpc: '2.0', id: (body as { id: number }).id, result: 7 }),
    );
    await expect(client.request('m', [])).resolves.toBe(7);
    expect(client.stats.retries).toBe(1);
  });

  it('retries an answer with neither result nor error, and fails naming it after the retries', async () => {
    const { client } = scripted((body) => json({ jsonrpc: '2.0', id: (body as { id: number }).id }));
    await expect(client.request('eth_getCode', ['0xab', '0x1'])).rejects.toThrow(
      'upstream http://upstream.test/ failed eth_getCode(0xab,0x1) after 2 retries: answer has neither result nor error',
    );
  });

  it('a fetch that throws a bug rejects the call and never the process', async () => {
    const client = new UpstreamClient({
      url: 'http://upstream.test/',
      retries: 0,
      fetch: (() => {
        throw new Error('boom');
      }) as typeof fetch,
    });
    await expect(client.request('m', [])).rejects.toThrow(/failed m\(\): connection error: boom/);
  });
});

describe('UpstreamClient resources', () => {
  it('leaves no timer behind once a request is answered (a long session does not accumulate them)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { client } = scripted((body) => json({ jsonrpc: '2.0', id: (body as { id: number }).id, result: '0x1' }));
      await Promise.all(Array.from({ length: 20 }, () => client.request('eth_chainId', [])));
      await client.request('eth_chainId', []);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('UpstreamClient options', () => {
  it('rejects a URL that is not http(s), and bad numbers, with an options error', () => {
    expect(() => new UpstreamClient({ url: 'ws://x/' })).toThrow(/fork url must be http\(s\)/);
    expect(() => new UpstreamClient({ url: 'nonsense' })).toThrow(/fork url is not a URL/);
    expect(() => new UpstreamClient({ url: 'http://x/', retries: -1 })).toThrow(
      /retries must be a non-negative integer/,
    );
  });
});
