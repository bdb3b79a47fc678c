/**
 * The embedding examples run as documented: plain node:http at `/`; express, fastify and koa with
 * JSON-RPC at `/rpc` over HTTP and WebSocket on one port, the explorer under `/explorer/api/v2`
 * (and `/api/v2` left to the app), the app's own `/health` — and after close() nothing of theirs
 * is left open: no server, socket or timer in process.getActiveResourcesInfo() beyond what was
 * there before they started.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { EmbeddedNode } from '../examples/embedded.js';

async function rpc(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** Handles by kind (TCPServerWrap, TCPSocketWrap, Timeout, …). */
function resources(): Map<string, number> {
  const out = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) out.set(kind, (out.get(kind) ?? 0) + 1);
  return out;
}

/** Kinds that have more handles now than in `before`, with how many more. */
function extra(before: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [kind, n] of resources()) if (n > (before.get(kind) ?? 0)) out[kind] = n - (before.get(kind) ?? 0);
  return out;
}

/**
 * Waits until no handle beyond `before` is left, or gives up after `ms` and answers what is left.
 * (A client socket closes a moment after the server ends it: polled, never timed.)
 */
async function settled(before: Map<string, number>, ms = 5_000): Promise<Record<string, number>> {
  const until = Date.now() + ms;
  for (;;) {
    const left = extra(before);
    if (Object.keys(left).length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Opens a WebSocket and resolves once it is open. */
function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** The next message on `ws` that satisfies `pick`. */
function nextMessage<T>(ws: WebSocket, pick: (m: Record<string, unknown>) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const on = (data: WebSocket.RawData) => {
      const m = JSON.parse(data.toString()) as Record<string, unknown>;
      if (!pick(m)) return;
      ws.off('message', on);
      resolve(m as T);
    };
    ws.on('message', on);
  });
}

describe('examples/node-http.ts', () => {
  it('serves eth_chainId at / and closes', async () => {
    const { start } = await import('../examples/node-http.js');
    const app = await start(0);
    try {
      expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await rpc(app.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: '0x7a69',
      });
    } finally {
      await app.close();
    }
  });
});

const frameworks: [string, () => Promise<{ start(port?: number): Promise<EmbeddedNode> }>][] = [
  ['express', () => import('../examples/express.js')],
  ['fastify', () => import('../examples/fastify.js')],
  ['koa', () => import('../examples/koa.js')],
];

describe.each(frameworks)('examples/%s.ts', (_name, load) => {
  it('serves JSON-RPC over HTTP and WebSocket, the explorer under its prefix and the app’s routes, then leaves nothing open', async () => {
    const { start } = await load();
    const before = resources();
    const app = await start(0);
    let ws: WebSocket | undefined;
    let wsClosed: Promise<number> | undefined;
    try {
      expect(await rpc(app.rpcUrl, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: '0x7a69',
      });
      const batch = (await rpc(app.rpcUrl, [
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] },
      ])) as { id: number; result: string }[];
      expect(new Map(batch.map((r) => [r.id, r.result]))).toEqual(
        new Map([
          [1, '0x7a69'],
          [2, '0x0'],
        ]),
      );

      // WebSocket on the same port and path: a newHeads subscription sees the block a send mines.
      ws = await openSocket(app.wsUrl);
      const socket = ws;
      wsClosed = new Promise((resolve) => socket.once('close', (code) => resolve(code)));
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_subscribe', params: ['newHeads'] }));
      const { result: subscription } = await nextMessage<{ result: string }>(socket, (m) => m.id === 7);
      expect(subscription).toMatch(/^0x[0-9a-f]+$/);
      const head = nextMessage<{ params: { subscription: string; result: { number: string } } }>(
        socket,
        (m) => m.method === 'eth_subscription',
      );
      const [from, to] = (
        (await rpc(app.rpcUrl, { jsonrpc: '2.0', id: 2, method: 'eth_accounts', params: [] })) as {
          result: string[];
        }
      ).result;
      await rpc(app.rpcUrl, {
        jsonrpc: '2.0',
        id: 3,
        method: 'eth_sendTransaction',
        params: [{ from, to, value: '0x1' }],
      });
      const note = await head;
      expect(note.params.subscription).toBe(subscription);
      expect(note.params.result.number).toBe('0x1');

      // The explorer under its prefix; /api/v2 itself is the app's (nothing there: 404).
      const blocks = await fetch(`${app.explorerUrl}/blocks`);
      expect(blocks.status).toBe(200);
      const body = (await blocks.json()) as { items: { height: number }[] };
      expect(body.items.map((b) => b.height)).toEqual([1, 0]);
      expect((await fetch(`${app.url}/api/v2/blocks`)).status).toBe(404);
      // JSON-RPC is not served at the explorer's prefix.
      const atPrefix = await fetch(app.explorerUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      expect(atPrefix.status).not.toBe(200);

      const health = await fetch(`${app.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.text()).toBe('ok');
    } finally {
      await app.close();
    }
    // close() ended the WebSocket connection the client still held (1001: going away).
    expect(await wsClosed).toBe(1001);
    expect(await settled(before)).toEqual({});
  });
});
