import { describe, expect, it } from 'vitest';

interface Example {
  start(port?: number): Promise<{ url: string; close(): Promise<void> }>;
}

// [name, loader, whether the example mounts its own /health route next to Ashlar]
const examples: [string, () => Promise<Example>, boolean][] = [
  ['node-http', () => import('../examples/node-http.js'), false],
  ['express', () => import('../examples/express.js'), true],
  ['fastify', () => import('../examples/fastify.js'), true],
  ['koa', () => import('../examples/koa.js'), true],
];

async function rpc(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe.each(examples)('examples/%s.ts', (_name, load, hasHealth) => {
  it('serves eth_chainId, a batch and the app’s own routes, then closes', async () => {
    const { start } = await load();
    const app = await start(0);
    try {
      expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await rpc(app.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: '0x7a69',
      });

      const batch = (await rpc(app.url, [
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] },
      ])) as { id: number; result: string }[];
      expect(Array.isArray(batch)).toBe(true);
      expect(batch).toHaveLength(2);
      const byId = new Map(batch.map((r) => [r.id, r.result]));
      expect(byId.get(1)).toBe('0x7a69');
      expect(byId.get(2)).toMatch(/^0x[0-9a-f]+$/);

      if (hasHealth) {
        const health = await fetch(`${app.url}/health`);
        expect(health.status).toBe(200);
        expect(await health.text()).toBe('ok');
      }
    } finally {
      await app.close();
    }
  });
});
