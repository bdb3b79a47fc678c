/**
 * Polling filters (eth_newFilter & co.) over HTTP, as geth serves them: ethers' JsonRpcProvider
 * (contract.on polls a filter per block) against the `ashlar` server and an express-mounted
 * node, the raw methods and their errors, removed logs after a revert, and expiry.
 */
import { createKernel, type Kernel } from '@ashlar/core';
import {
  ChainFeed,
  DEFAULT_FILTER_TIMEOUT_MS,
  FilterService,
  FiltersToken,
  filtersPlugin,
  rpcPlugins,
} from '@ashlar/rpc';
import { Contract, type ContractEventPayload, JsonRpcProvider } from 'ethers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  counterArtifact,
  deployCounter,
  filterCount,
  increment,
  incrementRun,
  SERVED_NODES,
  type ServedNode,
  sendTx,
  untilExactly,
  untilInstalled,
  untilLengthWhileMining,
} from './ws-helpers.js';

const RUN = 5;
/** A topic of 4 bytes instead of 32. */
const SHORT_TOPIC = `0x${'aa'.repeat(4)}`;

describe.each(SERVED_NODES)('ethers JsonRpcProvider polling filters, %s', (_name, start) => {
  let node: ServedNode;
  beforeAll(async () => {
    node = await start();
  });
  afterAll(() => node.close());

  it('contract.on over HTTP receives every event once, in order, through eth_newFilter', async () => {
    const provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true, pollingInterval: 20 });
    const counterAddress = await deployCounter(node.kernel);
    const contract = new Contract(counterAddress, counterArtifact.abi, provider);
    const seen: { hash: string; value: bigint }[] = [];
    const before = filterCount(node.kernel);
    const handle = vi.spyOn(node.kernel, 'handle');
    await contract.on('Incremented', (_by: string, newValue: bigint, event: ContractEventPayload) => {
      seen.push({ hash: event.log.transactionHash, value: newValue });
    });
    try {
      await untilInstalled(() => filterCount(node.kernel), before + 1);
      const hashes: string[] = await incrementRun(node.kernel, counterAddress, RUN);
      await untilLengthWhileMining(node.kernel, seen, RUN);
      hashes.push(await increment(node.kernel, counterAddress));
      await untilLengthWhileMining(node.kernel, seen, RUN + 1);
      expect(seen).toEqual(hashes.map((hash, i) => ({ hash, value: BigInt(i + 1) })));
      // Through the filter, not a fallback to eth_getLogs polling.
      const methods = handle.mock.calls.map(([p]) => (p as { method?: string }).method);
      expect(methods).toContain('eth_getFilterChanges');
      expect(methods).not.toContain('eth_getLogs');
      // ethers uninstalls its filter when the last listener goes.
      await contract.removeAllListeners();
      await untilExactly(() => filterCount(node.kernel), before);
      // ethers sends eth_uninstallFilter without awaiting it; destroying the provider while its
      // answer is on the way rejects a promise nobody holds. Let every answer arrive first.
      await Promise.allSettled(handle.mock.results.map((r) => r.value));
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      handle.mockRestore();
      await contract.removeAllListeners();
      provider.destroy();
    }
  });
});

describe('filter methods', () => {
  let kernel: Kernel;
  const rpc = <T>(method: string, params: unknown[] = []) => kernel.request<T>({ method, params });
  async function rejection(p: Promise<unknown>): Promise<{ code: number; message: string }> {
    try {
      await p;
    } catch (e) {
      return e as { code: number; message: string };
    }
    throw new Error('expected a rejection');
  }

  beforeEach(async () => {
    kernel = await createKernel({ plugins: rpcPlugins() });
  });
  afterEach(() => kernel.close());

  it('eth_newFilter collects matching logs between polls; eth_getFilterLogs runs the query again', async () => {
    const counter = await deployCounter(kernel);
    const other = await deployCounter(kernel);
    const id = await rpc<string>('eth_newFilter', [{ address: counter }]);
    expect(id).toMatch(/^0x[0-9a-f]{32}$/);
    expect(await rpc('eth_getFilterChanges', [id])).toEqual([]);
    await increment(kernel, counter);
    await increment(kernel, other);
    await increment(kernel, counter);
    const changes = await rpc<{ address: string; removed: boolean }[]>('eth_getFilterChanges', [id]);
    expect(changes.map((l) => [l.address, l.removed])).toEqual([
      [counter, false],
      [counter, false],
    ]);
    expect(changes).toEqual(await rpc('eth_getLogs', [{ address: counter, fromBlock: '0x0' }]));
    // Each poll returns only what is new.
    expect(await rpc('eth_getFilterChanges', [id])).toEqual([]);
    // eth_getFilterLogs applies the filter's own range (latest..latest by default).
    const all = await rpc<string>('eth_newFilter', [{ address: counter, fromBlock: '0x0' }]);
    expect(await rpc('eth_getFilterLogs', [all])).toEqual(changes);
    expect(await rpc('eth_getFilterLogs', [id])).toEqual(changes.slice(1));
  });

  it('sends the logs of reverted blocks again with removed: true', async () => {
    const counter = await deployCounter(kernel);
    const head = kernel.chain.head.number;
    const id = await rpc<string>('eth_newFilter', [{ address: counter }]);
    await increment(kernel, counter);
    const added = await rpc<{ removed: boolean }[]>('eth_getFilterChanges', [id]);
    await kernel.chain.exclusive(() => kernel.chain.revertTo(head));
    expect(await rpc('eth_getFilterChanges', [id])).toEqual(added.map((l) => ({ ...l, removed: true })));
  });

  it('eth_newBlockFilter and eth_newPendingTransactionFilter collect hashes (or whole transactions)', async () => {
    const blocks = await rpc<string>('eth_newBlockFilter');
    const pending = await rpc<string>('eth_newPendingTransactionFilter');
    const full = await rpc<string>('eth_newPendingTransactionFilter', [true]);
    const tx = await sendTx(kernel, { to: '0x0000000000000000000000000000000000000001', value: '0x1' });
    await rpc('evm_mine');
    const hashes = await rpc<string[]>('eth_getFilterChanges', [blocks]);
    expect(hashes).toEqual([
      (await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x1', false])).hash,
      (await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x2', false])).hash,
    ]);
    expect(await rpc('eth_getFilterChanges', [pending])).toEqual([tx]);
    expect(await rpc('eth_getFilterChanges', [full])).toEqual([expect.objectContaining({ hash: tx, blockHash: null })]);
  });

  it('answers unknown ids as geth: -32000 filter not found; uninstall says whether it existed', async () => {
    const id = await rpc<string>('eth_newBlockFilter');
    expect(await rpc('eth_uninstallFilter', [id])).toBe(true);
    expect(await rpc('eth_uninstallFilter', [id])).toBe(false);
    for (const method of ['eth_getFilterChanges', 'eth_getFilterLogs']) {
      expect(await rejection(rpc(method, [id]))).toEqual(
        expect.objectContaining({ code: -32000, message: 'filter not found' }),
      );
    }
    // A block filter has no logs to query.
    const blocks = await rpc<string>('eth_newBlockFilter');
    expect(await rejection(rpc('eth_getFilterLogs', [blocks]))).toMatchObject({ message: 'filter not found' });
    expect(await rejection(rpc('eth_newFilter', [{ fromBlock: 'pending' }]))).toMatchObject({
      code: -32602,
      message: 'pending logs are not supported',
    });
    expect(await rejection(rpc('eth_newFilter', [{ topics: [SHORT_TOPIC] }]))).toMatchObject({
      code: -32602,
    });
    expect(kernel.resolve(FiltersToken).size).toBe(1);
  });

  it('keeps filters alive while polled and drops them after the timeout, without leaving a timer', async () => {
    let now = 0;
    const service = new FilterService(
      new ChainFeed(kernel.events, (e) => {
        throw e;
      }),
      1_000,
      () => now,
    );
    const before = kernel.events.listenerCount('block');
    const polled = service.installBlocks();
    const idle = service.installBlocks();
    expect(kernel.events.listenerCount('block')).toBe(before + 1);
    for (let i = 0; i < 3; i++) {
      now += 999;
      expect(service.changes(polled)).toEqual([]);
    }
    expect(() => service.changes(idle)).toThrow('filter not found');
    now += 1_000;
    expect(() => service.changes(polled)).toThrow('filter not found');
    expect(service.size).toBe(0);
    expect(kernel.events.listenerCount('block')).toBe(before);

    // Nobody polls: the sweep frees them.
    service.installLogs({ addresses: [], topics: [] });
    now += 1_000;
    service.sweep();
    expect(service.size).toBe(0);
  });

  it('filtersPlugin({ timeoutMs }) sets the timeout; its sweeper stops when the kernel closes', async () => {
    expect(DEFAULT_FILTER_TIMEOUT_MS).toBe(300_000);
    expect(() => filtersPlugin({ timeoutMs: 0 })).toThrow(/rpc:filters timeoutMs must be a positive number/);
    const short = await createKernel({ plugins: rpcPlugins({ filters: { timeoutMs: 30 } }) });
    try {
      const service = short.resolve(FiltersToken);
      expect(service.timeoutMs).toBe(30);
      await short.request({ method: 'eth_newBlockFilter' });
      await short.request({ method: 'eth_newFilter', params: [{}] });
      expect(service.size).toBe(2);
      await untilExactly(() => service.size, 0);
      await short.request({ method: 'eth_newBlockFilter' });
      await short.close();
      expect(service.size).toBe(0);
    } finally {
      await short.close();
    }
  });
});
