import { createKernel, indexOf, indexPlugin } from '@ashlar/core';
import { describe, expect, it } from 'vitest';
import { explorerOf, explorerPlugin } from './plugin.js';

async function get(kernel: Awaited<ReturnType<typeof createKernel>>, path: string) {
  const u = new URL(path, 'http://x');
  const found = kernel.routes.lookup('GET', u.pathname);
  if (!found) throw new Error(`no route for ${path}`);
  return found.handler({ method: 'GET', path: u.pathname, params: found.params, query: u.searchParams });
}

describe('explorerPlugin', () => {
  it('mounts with only the index: a kernel with the two serves /api/v2 from the index', async () => {
    const k = await createKernel({ plugins: [indexPlugin(), explorerPlugin({ jsonRpcUrl: 'http://node:8545' })] });
    try {
      expect(indexOf(k)).toBeDefined();
      expect(explorerOf(k)?.jsonRpcUrl).toBe('http://node:8545');
      const blocks = await get(k, '/api/v2/blocks');
      expect(blocks.status).toBe(200);
      expect((blocks.body as { items: { height: number }[] }).items.map((b) => b.height)).toEqual([0]);
      const stats = await get(k, '/api/v2/stats');
      // 20 dev accounts, 4 system contracts, and genesis's zero-address miner
      expect(stats.body).toMatchObject({ total_blocks: '1', total_transactions: '0', total_addresses: '25' });
      expect(await get(k, '/api/v2/config/json-rpc-url')).toEqual({
        status: 200,
        body: { json_rpc_url: 'http://node:8545' },
      });
      expect(await get(k, '/api/v2/anything/else')).toEqual({
        status: 400,
        body: { message: 'Unknown API v2 action' },
      });
    } finally {
      await k.close();
    }
  });

  it('is absent from a kernel without it', async () => {
    const k = await createKernel();
    try {
      expect(explorerOf(k)).toBeUndefined();
      expect(indexOf(k)).toBeUndefined();
      expect(k.routes.lookup('GET', '/api/v2/blocks')).toBeUndefined();
    } finally {
      await k.close();
    }
  });
});
