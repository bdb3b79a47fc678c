/**
 * Built-in plugins declare what they need (issue #22): each one mounts alone with only its
 * declared dependencies, starts and answers one of its methods; the kernel refuses a set that
 * lacks a declared dependency, naming both plugins. Expected answers come from the chain's
 * rules (chain id 31337, keccak of nothing, the genesis hash), not from another of our methods.
 */
import { createKernel, createProvider, type Kernel, type Plugin, balanceAt, indexPlugin } from '@ashlar/core';
import { explorerPlugin } from '@ashlar/explorer';
import {
  debugPlugin,
  devPlugin,
  erigonPlugin,
  ethPlugin,
  otsPlugin,
  rpcPlugins,
  signPlugin,
  subscriptionsPlugin,
  testingPlugin,
  tracePlugin,
} from '@ashlar/rpc';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { verifyMessage } from 'ethers';
import { describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from './helpers/contracts.js';

const A = DEV_ACCOUNTS[0].address;
const KECCAK_EMPTY = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

type Check = (kernel: Kernel) => Promise<void>;

/** Every built-in plugin by name, and one call that shows it works on its own. */
const checks: Record<string, Check> = {
  'rpc:eth': async (k) => expect(await k.request({ method: 'eth_chainId' })).toBe('0x7a69'),
  'rpc:net': async (k) => expect(await k.request({ method: 'net_version' })).toBe('31337'),
  'rpc:web3': async (k) => expect(await k.request({ method: 'web3_sha3', params: ['0x'] })).toBe(KECCAK_EMPTY),
  'rpc:evm-mining': async (k) => {
    expect(await k.request({ method: 'evm_mine' })).toBe('0x0');
    expect(k.chain.head.number).toBe(1n);
  },
  'rpc:subscriptions': async (k) => {
    const id = await createProvider(k).request<string>({ method: 'eth_subscribe', params: ['newHeads'] });
    expect(id).toMatch(/^0x[0-9a-f]+$/);
  },
  'rpc:filters': async (k) => {
    const id = await k.request<string>({ method: 'eth_newBlockFilter' });
    expect(await k.request({ method: 'eth_getFilterChanges', params: [id] })).toEqual([]);
  },
  'rpc:dev': async (k) => {
    expect(await k.request({ method: 'hardhat_setBalance', params: [A, '0x2a'] })).toBe(true);
    expect(await balanceAt(k.chain, A)).toBe(42n);
  },
  'rpc:sign': async (k) => {
    const sig = await k.request<string>({ method: 'personal_sign', params: ['0x68656c6c6f', A] });
    expect(verifyMessage('hello', sig)).toBe(A);
  },
  'rpc:debug': async (k) => {
    const raw = await k.request<string>({ method: 'debug_getRawHeader', params: ['0x0'] });
    expect(bytesToHex(keccak_256(hexToBytes(raw as `0x${string}`)))).toBe(bytesToHex(k.chain.genesis.hash));
  },
  'rpc:trace': async (k) => expect(await k.request({ method: 'trace_block', params: ['0x0'] })).toEqual([]),
  'rpc:ots': async (k) => {
    expect(await k.request({ method: 'ots_getApiLevel' })).toBe(8);
    // An address-history method: it reads the index, which the declared dependency installs.
    expect(await k.request({ method: 'ots_searchTransactionsBefore', params: [A, 0, 10] })).toEqual({
      txs: [],
      receipts: [],
      firstPage: true,
      lastPage: true,
    });
  },
  index: async (k) => {
    const index = k.services.index;
    expect(index?.healthy).toBe(true);
    // Genesis is indexed: a dev account's record holds its genesis balance (10,000 ether).
    expect((await index?.queries.address(hexToBytes(A as `0x${string}`)))?.balance).toBe(10n ** 22n);
  },
  'rpc:erigon': async (k) => {
    const h = await k.request<{ hash: string }>({ method: 'erigon_getHeaderByNumber', params: [0] });
    expect(h.hash).toBe(bytesToHex(k.chain.genesis.hash));
  },
  'rpc:testing': async (k) => {
    const parent = bytesToHex(k.chain.head.hash);
    const attrs = {
      timestamp: `0x${(k.chain.head.block.header.timestamp + 12n).toString(16)}`,
      prevRandao: `0x${'00'.repeat(32)}`,
      suggestedFeeRecipient: A,
      withdrawals: [],
      parentBeaconBlockRoot: `0x${'00'.repeat(32)}`,
    };
    const built = await k.request<{ executionPayload: { parentHash: string; blockNumber: string } }>({
      method: 'testing_buildBlockV1',
      params: [parent, attrs, []],
    });
    expect(built.executionPayload.parentHash).toBe(parent);
    expect(built.executionPayload.blockNumber).toBe('0x1');
  },
  explorer: async (k) => {
    const found = k.routes.lookup('GET', '/api/v2/blocks/0');
    expect(found).toBeDefined();
    const res = await found!.handler({
      method: 'GET',
      path: '/api/v2/blocks/0',
      params: found!.params,
      query: new URLSearchParams(),
    });
    expect(res.status).toBe(200);
    expect((res.body as { hash: string }).hash).toBe(bytesToHex(k.chain.genesis.hash));
  },
};

const builtIns: Plugin<unknown>[] = [
  ...rpcPlugins(),
  indexPlugin() as Plugin<unknown>,
  otsPlugin as Plugin<unknown>,
  explorerPlugin() as Plugin<unknown>,
];

/** The plugin and, recursively, what it declares. */
function withDependencies(p: Plugin<unknown>): Plugin<unknown>[] {
  const byName = new Map(builtIns.map((b) => [b.name, b]));
  const out = new Map<string, Plugin<unknown>>();
  const add = (q: Plugin<unknown>) => {
    for (const d of q.dependencies ?? []) {
      const dep = byName.get(d);
      if (!dep) throw new Error(`${q.name} declares ${d}, which is not a built-in plugin`);
      add(dep);
    }
    out.set(q.name, q);
  };
  add(p);
  return [...out.values()];
}

describe('built-in plugins declare their dependencies', () => {
  it('every built-in plugin has a check here', () => {
    expect(Object.keys(checks).sort()).toEqual(builtIns.map((p) => p.name).sort());
  });

  it('declares what they use: rpc:dev needs rpc:evm-mining, rpc:filters needs rpc:eth, rpc:ots and explorer need index', () => {
    expect(devPlugin.dependencies).toEqual(['rpc:evm-mining']);
    expect(otsPlugin.dependencies).toEqual(['index']);
    expect(explorerPlugin().dependencies).toEqual(['index']);
    expect(indexPlugin().dependencies ?? []).toEqual([]);
    // rpcPlugins() holds what needs nothing outside @ashlar/rpc: rpc:ots is mounted with the index.
    expect(rpcPlugins().map((p) => p.name)).not.toContain('rpc:ots');
    expect(rpcPlugins().find((p) => p.name === 'rpc:filters')?.dependencies).toEqual(['rpc:eth']);
    for (const p of [ethPlugin, subscriptionsPlugin, signPlugin, debugPlugin, tracePlugin, erigonPlugin, testingPlugin])
      expect(p.dependencies ?? []).toEqual([]);
  });

  for (const plugin of builtIns) {
    it(`${plugin.name} starts with only its declared dependencies and answers`, async () => {
      const set = withDependencies(plugin);
      const kernel = await createKernel({ plugins: set });
      try {
        await checks[plugin.name](kernel);
      } finally {
        await kernel.close();
      }
    });
  }

  it('a set without a declared dependency is refused, naming both plugins', async () => {
    await expect(createKernel({ plugins: [devPlugin as Plugin<unknown>] })).rejects.toMatchObject({
      code: 'ASHLAR_ERR_PLUGIN_MISSING_DEPENDENCY',
      message: 'missing plugin dependencies: "rpc:dev" needs "rpc:evm-mining"',
    });
    const filters = rpcPlugins().find((p) => p.name === 'rpc:filters') as Plugin<unknown>;
    await expect(createKernel({ plugins: [filters] })).rejects.toMatchObject({
      message: 'missing plugin dependencies: "rpc:filters" needs "rpc:eth"',
    });
    await expect(createKernel({ plugins: [ethPlugin, otsPlugin] as Plugin<unknown>[] })).rejects.toMatchObject({
      code: 'ASHLAR_ERR_PLUGIN_MISSING_DEPENDENCY',
      message: 'missing plugin dependencies: "rpc:ots" needs "index"',
    });
    await expect(createKernel({ plugins: [explorerPlugin() as Plugin<unknown>] })).rejects.toMatchObject({
      message: 'missing plugin dependencies: "explorer" needs "index"',
    });
  });
});
