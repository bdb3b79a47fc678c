import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configHooks, UNREACHABLE_URL } from './configHooks.js';
import { ashlar } from './index.js';
import { networkHooks } from './networkHooks.js';
import { startAshlar } from '../startAshlar.js';
import type { JsonRpcRequest, JsonRpcResponse, NetworkConnectionLike } from './types.js';

let nextId = 0;
const connection = (networkName = 'default'): NetworkConnectionLike => ({ id: nextId++, networkName });
const request = (method: string, params: unknown[] = []): JsonRpcRequest => ({ jsonrpc: '2.0', id: 1, method, params });
const unreachable = async (): Promise<never> => {
  throw new Error('next() was called');
};
const result = (r: JsonRpcResponse) => ('result' in r ? r.result : r.error);

describe('Hardhat 3 config hook', () => {
  it('declares the taken-over network as http, keeping the others', async () => {
    const hooks = configHooks('default');
    const extended = await hooks.extendUserConfig({ networks: { other: { type: 'http', url: 'x' } } }, async (c) => c);
    expect(extended.networks).toEqual({
      other: { type: 'http', url: 'x' },
      default: { type: 'http', chainType: 'l1', url: UNREACHABLE_URL },
    });
  });
});

describe('Hardhat 3 network hooks', () => {
  it('answers the taken-over network from Ashlar and passes other networks on', async () => {
    const hooks = networkHooks('default', {});
    const mine = connection();
    try {
      expect(result(await hooks.onRequest({}, mine, request('eth_chainId'), unreachable))).toBe('0x7a69');
      const bad = await hooks.onRequest({}, mine, request('eth_getBalance', ['0x12']), unreachable);
      expect('error' in bad && bad.error.code).toBe(-32602);
      const passed = await hooks.onRequest({}, connection('sepolia'), request('eth_chainId'), async (_c, _n, r) => ({
        jsonrpc: '2.0',
        id: r.id,
        result: 'from next',
      }));
      expect(result(passed)).toBe('from next');
    } finally {
      await hooks.closeConnection({}, mine, async () => {});
    }
  });

  it('gives each connection its own chain, closed with the connection', async () => {
    const hooks = networkHooks('default', {});
    const [a, b] = [connection(), connection()];
    const accounts = result(await hooks.onRequest({}, a, request('eth_accounts'), unreachable)) as string[];
    await hooks.onRequest({}, a, request('eth_sendTransaction', [{ from: accounts[0], to: accounts[1] }]), unreachable);
    expect(result(await hooks.onRequest({}, a, request('eth_blockNumber'), unreachable))).toBe('0x1');
    expect(result(await hooks.onRequest({}, b, request('eth_blockNumber'), unreachable))).toBe('0x0');
    let nextCalled = false;
    await hooks.closeConnection({}, a, async () => {
      nextCalled = true;
    });
    expect(nextCalled).toBe(true);
    // A closed connection's next request would start a fresh chain.
    expect(result(await hooks.onRequest({}, a, request('eth_blockNumber'), unreachable))).toBe('0x0');
    await hooks.closeConnection({}, a, async () => {});
    await hooks.closeConnection({}, b, async () => {});
  });

  it('serves the first connection on the port while it is open, with its explorer API', async () => {
    const lines: string[] = [];
    const hooks = networkHooks('default', { port: 0 }, (o) => startAshlar(o, (line) => lines.push(line)));
    const [a, b] = [connection(), connection()];
    try {
      const accounts = result(await hooks.onRequest({}, a, request('eth_accounts'), unreachable)) as string[];
      await hooks.onRequest(
        {},
        a,
        request('eth_sendTransaction', [{ from: accounts[0], to: accounts[1] }]),
        unreachable,
      );
      await hooks.onRequest({}, b, request('eth_chainId'), unreachable);
      expect(lines).toHaveLength(1);
      const url = /on (http:\/\/\S+) and/.exec(lines[0])?.[1];
      const res = await fetch(url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      });
      expect(((await res.json()) as { result: string }).result).toBe('0x1');
      const blocks = (await (await fetch(`${url}/api/v2/blocks`)).json()) as { items: { height: number }[] };
      expect(blocks.items[0].height).toBe(1);
    } finally {
      await hooks.closeConnection({}, b, async () => {});
      await hooks.closeConnection({}, a, async () => {});
    }
  });

  it('with a LevelDB db, connections share one chain, kept on disk after the last one closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ashlar-hardhat-db-'));
    try {
      const hooks = networkHooks('default', { db: dir });
      const [a, b] = [connection(), connection()];
      const accounts = result(await hooks.onRequest({}, a, request('eth_accounts'), unreachable)) as string[];
      await hooks.onRequest(
        {},
        a,
        request('eth_sendTransaction', [{ from: accounts[0], to: accounts[1] }]),
        unreachable,
      );
      expect(result(await hooks.onRequest({}, b, request('eth_blockNumber'), unreachable))).toBe('0x1');
      await hooks.closeConnection({}, a, async () => {});
      expect(result(await hooks.onRequest({}, b, request('eth_blockNumber'), unreachable))).toBe('0x1');
      await hooks.closeConnection({}, b, async () => {});
      const c = connection();
      expect(result(await hooks.onRequest({}, c, request('eth_blockNumber'), unreachable))).toBe('0x1');
      await hooks.closeConnection({}, c, async () => {});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a chain that cannot start answers its error, and its connection still closes', async () => {
    const hooks = networkHooks('default', {}, async () => {
      throw new Error('port in use');
    });
    const a = connection();
    await expect(hooks.onRequest({}, a, request('eth_chainId'), unreachable)).rejects.toThrow('port in use');
    let nextCalled = false;
    await hooks.closeConnection({}, a, async () => {
      nextCalled = true;
    });
    expect(nextCalled).toBe(true);
  });

  it('the plugin object names its hooks', async () => {
    const plugin = ashlar({ network: 'local' });
    expect(plugin.id).toBe('ashlar');
    const config = await (await plugin.hookHandlers.config()).default();
    const extended = await config.extendUserConfig({}, async (c) => c);
    expect(Object.keys(extended.networks ?? {})).toEqual(['local']);
    const network = await (await plugin.hookHandlers.network()).default();
    expect(typeof network.onRequest).toBe('function');
  });
});
