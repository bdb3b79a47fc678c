// The explorer as a user meets it: `ashlar`'s node (createNode + startServer) serving /api/v2 on
// the JSON-RPC port, driven with ethers; and a LevelDB node that answers the same after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCliArgs } from '../packages/cli/src/args.js';
import { ContractFactory, JsonRpcProvider, Wallet } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, loadArtifact } from './helpers/contracts.js';
import { startNode } from './helpers/node.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function get(url: string, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, { headers: { accept: 'application/json' } });
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  return { status: res.status, body: await res.json() };
}

/** A few transactions with ethers, as a user would: coins, a token deployment and a transfer. */
async function useChain(url: string): Promise<{ token: string; hash: string }> {
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
  const wallet = new Wallet(DEV_ACCOUNTS[0].privateKey, provider);
  await (await wallet.sendTransaction({ to: DEV_ACCOUNTS[1].address, value: 10n ** 17n })).wait();
  const { abi, bytecode } = loadArtifact('Token');
  const contract = await new ContractFactory(abi, bytecode, wallet).deploy('Http Token', 'HTTP', 10n ** 21n);
  await contract.waitForDeployment();
  const tx = await wallet.sendTransaction({
    to: await contract.getAddress(),
    data: contract.interface.encodeFunctionData('transfer', [DEV_ACCOUNTS[2].address, 5n]),
  });
  await tx.wait();
  provider.destroy();
  return { token: await contract.getAddress(), hash: tx.hash };
}

describe('explorer over HTTP', () => {
  it('serves /api/v2 beside JSON-RPC on one port, with Blockscout’s error statuses', async () => {
    const node = await startNode();
    try {
      const { token, hash } = await useChain(node.url);
      const tx = await get(node.url, `/api/v2/transactions/${hash}`);
      expect(tx.status).toBe(200);
      expect(tx.body).toMatchObject({
        hash,
        method: 'transfer',
        status: 'ok',
        tx_types: ['contract_call', 'token_transfer'],
      });
      const t = await get(node.url, `/api/v2/tokens/${token}`);
      expect(t.body).toMatchObject({ name: 'Http Token', symbol: 'HTTP', holders: '2' });
      expect((await get(node.url, '/api/v2/search?q=http')).body).toMatchObject({
        items: [{ type: 'token', symbol: 'HTTP' }],
      });
      expect(await get(node.url, '/api/v2/unknown')).toEqual({
        status: 400,
        body: { message: 'Unknown API v2 action' },
      });
      expect(await get(node.url, `/api/v2/smart-contracts/${token}/methods-read`)).toEqual({
        status: 404,
        body: { message: 'Not found' },
      });
      expect((await get(node.url, '/api/v2/addresses/0xnope')).status).toBe(422);
      expect((await get(node.url, '/api/v2/blocks/99999')).status).toBe(404);
    } finally {
      await node.close();
    }
  });

  it('answers the same after a restart on the same LevelDB path', async () => {
    const db = mkdtempSync(join(tmpdir(), 'ashlar-explorer-'));
    dirs.push(db);
    const first = await startNode({ db });
    const { token, hash } = await useChain(first.url);
    const [a, b] = DEV_ACCOUNTS.map((x) => x.address);
    const paths = [
      '/api/v2/blocks',
      '/api/v2/transactions',
      `/api/v2/transactions/${hash}`,
      `/api/v2/transactions/${hash}/logs`,
      '/api/v2/addresses',
      `/api/v2/addresses/${a}`,
      `/api/v2/addresses/${a}/counters`,
      `/api/v2/addresses/${a}/transactions`,
      `/api/v2/addresses/${b}/coin-balance-history`,
      `/api/v2/addresses/${a}/token-transfers`,
      `/api/v2/tokens`,
      `/api/v2/tokens/${token}/holders`,
      '/api/v2/search?q=http',
      '/api/v2/stats',
      '/api/v2/main-page/blocks',
    ];
    const before = [];
    for (const p of paths) before.push(await get(first.url, p));
    await first.close();
    const second = await startNode({ db });
    try {
      const after = [];
      for (const p of paths) after.push(await get(second.url, p));
      expect(after).toEqual(before);
    } finally {
      await second.close();
    }
  });
});

describe('ashlar --reindex', () => {
  it('asks createNode to rebuild the explorer index, by flag or environment', () => {
    expect(parseCliArgs(['--reindex'], {}).node.reindex).toBe(true);
    expect(parseCliArgs([], { ASHLAR_REINDEX: '1' }).node.reindex).toBe(true);
    expect(parseCliArgs([], {}).node.reindex).toBeUndefined();
  });
});
