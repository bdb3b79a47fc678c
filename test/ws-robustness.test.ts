/**
 * The WebSocket endpoint of a real node under abuse: bad frames, limits, a client that stops
 * reading, and a thousand connections that come and go, after which no kernel listener,
 * subscription, filter or timer may be left.
 */
import { createHook } from 'node:async_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKernel, type Kernel } from '@ashlar/core';
import { FiltersToken, rpcPlugins, SubscriptionsToken } from '@ashlar/rpc';
import { attachWebSocket, type WebSocketEndpoint, type WebSocketOptions } from '@ashlar/transport-ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { DEV_ACCOUNTS } from './helpers/contracts.js';

interface Node {
  kernel: Kernel;
  ws: WebSocketEndpoint;
  wsUrl: string;
  close(): Promise<void>;
}

const nodes: Node[] = [];
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.close();
});

const quiet = { warn() {}, error() {} };

async function startWsNode(ws: WebSocketOptions = {}, filterTimeoutMs?: number): Promise<Node> {
  const kernel = await createKernel({
    plugins: rpcPlugins(filterTimeoutMs === undefined ? {} : { filters: { timeoutMs: filterTimeoutMs } }),
  });
  const server = createServer((_req, res) => res.writeHead(404).end());
  const endpoint = attachWebSocket({ engine: kernel }, server, { logger: quiet, ...ws });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const node: Node = {
    kernel,
    ws: endpoint,
    wsUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await endpoint.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await kernel.close();
    },
  };
  nodes.push(node);
  return node;
}

/** A raw client and its incoming JSON messages. */
async function client(url: string): Promise<{ ws: WebSocket; inbox: Record<string, unknown>[] }> {
  const ws = new WebSocket(url);
  const inbox: Record<string, unknown>[] = [];
  ws.on('message', (d) => inbox.push(JSON.parse(d.toString())));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, inbox };
}

/** Sends `body` and waits for the answer carrying `id` (or any answer, for id null). */
async function ask(c: { ws: WebSocket; inbox: Record<string, unknown>[] }, body: unknown, id: unknown) {
  const from = c.inbox.length;
  c.ws.send(typeof body === 'string' ? body : JSON.stringify(body));
  let found: Record<string, unknown> | undefined;
  await vi.waitFor(
    () => {
      found = c.inbox.slice(from).find((m) => m.id === id || (Array.isArray(m) && id === 'batch'));
      if (!found) throw new Error(`no answer for ${String(id)}`);
    },
    { timeout: 10_000, interval: 2 },
  );
  return found as Record<string, unknown>;
}

const closeCode = (ws: WebSocket): Promise<number> =>
  new Promise((resolve) => ws.once('close', (code) => resolve(code)));

const listeners = (k: Kernel) =>
  (['block', 'revert', 'pendingTransaction'] as const).map((e) => k.events.listenerCount(e));

describe('frames', () => {
  it('answers malformed JSON with -32700 and keeps the connection; closes on binary (1003) and oversize (1009) frames', async () => {
    const node = await startWsNode({ maxFrameBytes: 4096 });
    const c = await client(node.wsUrl);
    expect(await ask(c, '{"jsonrpc":"2.0",', null)).toMatchObject({ error: { code: -32700 } });
    expect(await ask(c, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, 1)).toMatchObject({ result: '0x7a69' });
    const batch = await ask(
      c,
      [
        { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber' },
        { jsonrpc: '2.0', id: 3, method: 'eth_subscribe', params: ['newHeads'] },
      ],
      'batch',
    );
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 2, result: '0x0' },
      { jsonrpc: '2.0', id: 3, result: expect.stringMatching(/^0x[0-9a-f]{32}$/) },
    ]);

    const binary = closeCode(c.ws);
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await binary).toBe(1003);

    const d = await client(node.wsUrl);
    const oversize = closeCode(d.ws);
    d.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'web3_sha3', params: [`0x${'00'.repeat(4096)}`] }));
    expect(await oversize).toBe(1009);
    await vi.waitFor(() => expect(node.kernel.resolve(SubscriptionsToken).size).toBe(0));
  });
});

describe('limits', () => {
  it('refuses connections past maxConnections (503) and subscriptions past maxSubscriptionsPerConnection (-32005)', async () => {
    const node = await startWsNode({ maxConnections: 2, maxSubscriptionsPerConnection: 2 });
    const a = await client(node.wsUrl);
    await client(node.wsUrl);
    const status = await new Promise<number>((resolve) => {
      const refused = new WebSocket(node.wsUrl);
      refused.on('error', () => {});
      refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    });
    expect(status).toBe(503);

    const sub = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_subscribe', params: ['newHeads'] });
    const first = await ask(a, sub(1), 1);
    await ask(a, sub(2), 2);
    expect(await ask(a, sub(3), 3)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32005,
        message: expect.stringContaining('limit is 2 per connection (maxSubscriptionsPerConnection)'),
      },
    });
    expect(await ask(a, { jsonrpc: '2.0', id: 4, method: 'eth_unsubscribe', params: [first.result] }, 4)).toMatchObject(
      {
        result: true,
      },
    );
    expect(await ask(a, sub(5), 5)).toMatchObject({ result: expect.any(String) });
    expect(node.kernel.resolve(SubscriptionsToken).size).toBe(2);
  });
});

describe('a client that stops reading', () => {
  it('is cut once its backlog passes maxBufferedBytes; the node stays bounded and others get everything', async () => {
    const limit = 1024 * 1024;
    const node = await startWsNode({ maxBufferedBytes: limit });
    const subscribe = { jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newPendingTransactions', true] };
    const slow = await client(node.wsUrl);
    await ask(slow, subscribe, 1);
    const fast = await client(node.wsUrl);
    await ask(fast, subscribe, 1);
    slow.ws.pause();
    const slowClosed = closeCode(slow.ws);

    // Each notification carries a 64 KiB calldata as 128 KiB of hex.
    const data = `0x${'00'.repeat(64 * 1024)}`;
    const message = 2 * 64 * 1024 + 2_000;
    let sent = 0;
    let peak = 0;
    // Loopback socket buffers take megabytes before the node has to hold anything: go on until cut.
    while (node.ws.stats().droppedSlowConsumers === 0 && sent < 1_000) {
      await node.kernel.request({
        method: 'eth_sendTransaction',
        params: [{ from: DEV_ACCOUNTS[0].address, to: DEV_ACCOUNTS[1].address, data, gas: '0x200000' }],
      });
      sent++;
      peak = Math.max(peak, node.ws.stats().bufferedBytes);
      await new Promise((r) => setImmediate(r));
    }
    expect(node.ws.stats().droppedSlowConsumers).toBe(1);
    expect(peak).toBeLessThanOrEqual(limit + 2 * message);
    await vi.waitFor(() => expect(node.ws.stats().connections).toBe(1));
    expect(node.kernel.resolve(SubscriptionsToken).size).toBe(1);
    slow.ws.resume();
    expect(await slowClosed).toBe(1006);
    // The reader that kept up saw every transaction, once.
    await vi.waitFor(() => expect(fast.inbox.length).toBe(1 + sent), { timeout: 15_000 });
    const hashes = new Set(fast.inbox.slice(1).map((m) => (m.params as { result: { hash: string } }).result.hash));
    expect(hashes.size).toBe(sent);
  });
});

describe('a thousand connections', () => {
  it('come and go with subscriptions and filters, and leave no listener, subscription, filter or timer behind', async () => {
    const node = await startWsNode({ heartbeatMs: 60_000 }, 300);
    const { kernel } = node;
    const baseline = listeners(kernel);

    // Timers created by our packages or ws from here on, by async id, until destroyed.
    const timers = new Map<number, string>();
    const hook = createHook({
      init(asyncId, type) {
        if (type !== 'Timeout') return;
        const stack = new Error().stack ?? '';
        if (/packages\/(rpc|core|transport-ws)\/|node_modules\/ws\//.test(stack)) timers.set(asyncId, stack);
      },
      destroy(asyncId) {
        timers.delete(asyncId);
      },
    }).enable();

    try {
      const calls = [
        { jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] },
        { jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', {}] },
        { jsonrpc: '2.0', id: 3, method: 'eth_subscribe', params: ['newPendingTransactions'] },
        { jsonrpc: '2.0', id: 4, method: 'eth_newBlockFilter' },
      ];
      for (let round = 0; round < 10; round++) {
        const batch = await Promise.all(Array.from({ length: 100 }, () => client(node.wsUrl)));
        const answers = await Promise.all(batch.map((c) => ask(c, calls, 'batch')));
        for (const a of answers) expect(a).toHaveLength(4);
        expect(kernel.resolve(SubscriptionsToken).size).toBe(300);
        // One kernel listener per event and registry, however many subscribers: subscriptions
        // (block, revert, pending) and filters (block).
        expect(listeners(kernel)).toEqual([baseline[0] + 2, baseline[1] + 1, baseline[2] + 1]);
        // Every connection is notified; then half leave politely, half drop their sockets.
        await kernel.request({ method: 'evm_mine' });
        await vi.waitFor(() => {
          for (const c of batch) expect(c.inbox.length).toBeGreaterThan(1);
        });
        for (const [i, c] of batch.entries()) {
          if (i % 2 === 0) c.ws.close();
          else c.ws.terminate();
        }
        await vi.waitFor(() => expect(node.ws.stats().connections).toBe(0));
      }
      expect(kernel.resolve(SubscriptionsToken).size).toBe(0);
      expect(kernel.resolve(SubscriptionsToken).connections).toBe(0);
      // Mining with nobody listening reaches no closed connection.
      await kernel.request({ method: 'evm_mine' });
      // Filters outlive connections (they are global, as in geth) until their timeout.
      await vi.waitFor(() => expect(kernel.resolve(FiltersToken).size).toBe(0), { timeout: 10_000 });
      expect(listeners(kernel)).toEqual(baseline);
      // Destroy hooks run asynchronously: let them settle.
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      expect([...timers.values()]).toEqual([]);
    } finally {
      hook.disable();
    }
  });
});
