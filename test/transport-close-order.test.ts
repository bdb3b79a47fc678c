/**
 * Kernel and transports close in either order (issue #22, lifecycle): a kernel closed first
 * closes what the transports attached — WebSocket connections get 1001 "going away" (which ends
 * their subscriptions), HTTP answers in flight go out and keep-alive sockets end after their
 * answer, `startServer`'s server closes — and nothing is left open. Closing the transport first
 * still works, and closing twice is harmless. A request after close gets ASHLAR_ERR_KERNEL_CLOSED
 * in-process, over HTTP and over WebSocket (in the window before the connection closes; an
 * upgrade after it gets 503 with that error).
 */
import { createServer, type Server } from 'node:http';
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { definePlugin, defineRpcMethod, ErrorCodes, type Kernel, RpcRequestError } from '@ashlar/core';
import { expressMiddleware, fastifyPlugin, koaMiddleware } from '@ashlar/transport-http';
import { createHttpHandler } from '@ashlar/transport-http';
import { attachWebSocket, type WebSocketEndpoint } from '@ashlar/transport-ws';
import { createNode, startServer } from 'ashlar';
import { WebSocketProvider } from 'ethers';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';

/** What every caller must see after close (docs/errors.md's row for ASHLAR_ERR_KERNEL_CLOSED). */
const CLOSED = { code: -32603, message: 'the chain is closed' };
const quiet = { warn() {}, error() {} };

/** Handles by kind (TCPServerWrap, TCPSocketWrap, Timeout, …). */
function resources(): Map<string, number> {
  const out = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) out.set(kind, (out.get(kind) ?? 0) + 1);
  return out;
}

/** Waits until no handle beyond `before` is left (polled: a client socket closes a moment after the server's), then answers what is left. */
async function settled(before: Map<string, number>, ms = 5_000): Promise<Record<string, number>> {
  const until = Date.now() + ms;
  for (;;) {
    const left: Record<string, number> = {};
    for (const [kind, n] of resources()) if (n > (before.get(kind) ?? 0)) left[kind] = n - (before.get(kind) ?? 0);
    if (Object.keys(left).length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A method that answers only when the test says so: a request kept in flight across close(). */
function holdPlugin() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  let enter!: () => void;
  const entered = new Promise<void>((r) => {
    enter = r;
  });
  const plugin = definePlugin({
    name: 'test-hold',
    register: (ctx) =>
      ctx.addMethods(
        defineRpcMethod({
          name: 'test_hold',
          params: [],
          handler: async (c) => {
            enter();
            await opened;
            // Read after close() was called: the chain must still be open for answers in flight.
            return `0x${c.services.chain.head.number.toString(16)}`;
          },
        }),
      ),
  });
  return { plugin, entered, open };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Every message `ws` receives, parsed, and a way to wait for one. */
function inbox(ws: WebSocket) {
  const seen: Record<string, unknown>[] = [];
  const waiters: { pick: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }[] =
    [];
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as Record<string, unknown>;
    seen.push(m);
    for (const w of waiters.splice(0)) {
      if (w.pick(m)) w.resolve(m);
      else waiters.push(w);
    }
  });
  return {
    seen,
    next(pick: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      const found = seen.find(pick);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ pick, resolve }));
    },
  };
}

const closeCode = (ws: WebSocket): Promise<number> =>
  new Promise((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) resolve(-1);
    ws.once('close', (code) => resolve(code));
  });

/** An HTTP POST of JSON on `agent`: status, headers, parsed body and whether the socket was reused. */
function post(
  port: number,
  path: string,
  body: unknown,
  agent: Agent,
): Promise<{
  status: number;
  connection: string | undefined;
  body: unknown;
  reused: boolean;
  socketClosed: Promise<void>;
}> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const socket = res.socket;
        const socketClosed = new Promise<void>((r) => {
          if (socket.destroyed) r();
          else socket.once('close', () => r());
        });
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
            reused: req.reusedSocket,
            socketClosed,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

async function subscribeNewHeads(ws: WebSocket, box: ReturnType<typeof inbox>): Promise<string> {
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'sub', method: 'eth_subscribe', params: ['newHeads'] }));
  const { result } = (await box.next((m) => m.id === 'sub')) as { result: string };
  expect(result).toMatch(/^0x[0-9a-f]+$/);
  return result;
}

describe('kernel closed before its transports (node:http + attachWebSocket)', () => {
  it('closes a WebSocket with a live subscription (1001), ends keep-alive sockets after their answer, and leaves no handle once the app closes its server', async () => {
    const before = resources();
    const kernel = await createNode({ explorer: false });
    const server = createServer(createHttpHandler({ engine: kernel }));
    const endpoint = attachWebSocket({ engine: kernel }, server, { logger: quiet });
    const port = await listen(server);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const ws = await openSocket(`ws://127.0.0.1:${port}`);
      const box = inbox(ws);
      const closed = closeCode(ws);
      const subscription = await subscribeNewHeads(ws, box);
      await kernel.request({ method: 'evm_mine' });
      const head = (await box.next((m) => m.method === 'eth_subscription')) as {
        params: { subscription: string; result: { number: string } };
      };
      expect(head.params).toMatchObject({ subscription, result: { number: '0x1' } });
      expect(endpoint.stats()).toMatchObject({ connections: 1, subscriptions: 1 });

      // A kept-alive HTTP socket, answered before the close.
      const first = await post(port, '/', { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' }, agent);
      expect(first).toMatchObject({ status: 200, connection: 'keep-alive', body: { result: '0x1' } });

      await kernel.close();
      expect(await closed).toBe(1001);
      expect(endpoint.stats()).toMatchObject({ connections: 0, subscriptions: 0 });

      // The same socket: answered with the kernel's refusal, then closed by the server.
      const after = await post(port, '/', { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber' }, agent);
      expect(after).toMatchObject({
        status: 200,
        connection: 'close',
        reused: true,
        body: { jsonrpc: '2.0', id: 2, error: CLOSED },
      });
      await after.socketClosed;

      // An upgrade after the close: refused with 503 and the same error, never left hanging.
      const refused = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const late = new WebSocket(`ws://127.0.0.1:${port}`);
        late.once('open', () => reject(new Error('upgraded after the kernel closed')));
        late.once('error', () => {});
        late.once('unexpected-response', (_req, res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
          );
        });
      });
      expect(refused).toEqual({ status: 503, body: { jsonrpc: '2.0', id: null, error: CLOSED } });
    } finally {
      agent.destroy();
      // The app's part, in the order it likes; the endpoint's close after the kernel's is harmless.
      await endpoint.close();
      await endpoint.close();
      await closeServer(server);
      await kernel.close();
    }
    expect(await settled(before)).toEqual({});
  });

  it('lets requests in flight answer from the open chain; a WebSocket request that arrives meanwhile gets ASHLAR_ERR_KERNEL_CLOSED, then 1001', async () => {
    const hold = holdPlugin();
    const kernel = await createNode({ explorer: false, plugins: [hold.plugin] });
    const server = createServer(createHttpHandler({ engine: kernel }));
    const endpoint = attachWebSocket({ engine: kernel }, server, { logger: quiet });
    const port = await listen(server);
    try {
      const ws = await openSocket(`ws://127.0.0.1:${port}`);
      const box = inbox(ws);
      const closed = closeCode(ws);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'test_hold' }));
      await hold.entered;
      const closing = kernel.close();
      // In-process, at once.
      const inProcess = await kernel.request({ method: 'eth_chainId' }).catch((e: unknown) => e);
      expect(inProcess).toBeInstanceOf(RpcRequestError);
      expect(inProcess).toMatchObject({ ...CLOSED, ashlarCode: ErrorCodes.CLOSED });
      // Over WebSocket: the connection is still open for the answer in flight.
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_chainId' }));
      expect(await box.next((m) => m.id === 2)).toEqual({ jsonrpc: '2.0', id: 2, error: CLOSED });
      hold.open();
      expect(await box.next((m) => m.id === 1)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x0' });
      expect(await closed).toBe(1001);
      await closing;
    } finally {
      await endpoint.close();
      await closeServer(server);
    }
  });

  it('an HTTP request in flight answers from the open chain, with Connection: close', async () => {
    const hold = holdPlugin();
    const kernel = await createNode({ explorer: false, plugins: [hold.plugin] });
    const server = createServer(createHttpHandler({ engine: kernel }));
    const port = await listen(server);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answer = post(port, '/', { jsonrpc: '2.0', id: 1, method: 'test_hold' }, agent);
      await hold.entered;
      const closing = kernel.close();
      hold.open();
      const res = await answer;
      expect(res).toMatchObject({ status: 200, connection: 'close', body: { jsonrpc: '2.0', id: 1, result: '0x0' } });
      await res.socketClosed;
      await closing;
    } finally {
      agent.destroy();
      await closeServer(server);
    }
  });
});

/** The review's case and its siblings: a framework app with WebSocket on its server, kernel closed first. */
type App = { port: number; endpoint: WebSocketEndpoint; closeApp(): Promise<void> };
const frameworks: [string, (kernel: Kernel) => Promise<App>][] = [
  [
    'express',
    async (kernel) => {
      const app = express();
      app.use(expressMiddleware({ engine: kernel, routes: kernel.routes }, { path: '/rpc' }));
      const server = createServer(app);
      const endpoint = attachWebSocket({ engine: kernel }, server, { path: '/rpc', logger: quiet });
      return { port: await listen(server), endpoint, closeApp: () => closeServer(server) };
    },
  ],
  [
    'fastify',
    async (kernel) => {
      const app = Fastify();
      const endpoint = attachWebSocket({ engine: kernel }, app.server, { path: '/rpc', logger: quiet });
      await app.register(fastifyPlugin({ engine: kernel, routes: kernel.routes }, { path: '/rpc' }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      return { port: (app.server.address() as AddressInfo).port, endpoint, closeApp: () => app.close() };
    },
  ],
  [
    'koa',
    async (kernel) => {
      const app = new Koa();
      app.use(koaMiddleware({ engine: kernel, routes: kernel.routes }, { path: '/rpc' }));
      const server = createServer(app.callback());
      const endpoint = attachWebSocket({ engine: kernel }, server, { path: '/rpc', logger: quiet });
      return { port: await listen(server), endpoint, closeApp: () => closeServer(server) };
    },
  ],
];

describe.each(frameworks)('%s app, kernel closed first', (_name, start) => {
  it('ends the ethers WebSocketProvider subscription (1001) and the kept-alive HTTP socket; nothing is left after the app closes', async () => {
    const before = resources();
    const kernel = await createNode({ explorer: false });
    const app = await start(kernel);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const provider = new WebSocketProvider(`ws://127.0.0.1:${app.port}/rpc`, 31337);
    try {
      const socket = provider.websocket as unknown as WebSocket;
      const closed = new Promise<number>((resolve) => socket.addEventListener('close', (e) => resolve(e.code)));
      const block = new Promise<number>((resolve) => void provider.once('block', (n: number) => resolve(n)));
      // ethers subscribes (eth_subscribe newHeads) before it reports the block a mine makes.
      for (;;) {
        if (app.endpoint.stats().subscriptions === 1) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const first = await post(app.port, '/rpc', { jsonrpc: '2.0', id: 1, method: 'evm_mine' }, agent);
      expect(first).toMatchObject({ status: 200, connection: 'keep-alive', body: { jsonrpc: '2.0', id: 1 } });
      expect(await block).toBe(1);

      await kernel.close();
      expect(await closed).toBe(1001);
      expect(app.endpoint.stats()).toMatchObject({ connections: 0, subscriptions: 0 });
      const after = await post(app.port, '/rpc', { jsonrpc: '2.0', id: 2, method: 'eth_chainId' }, agent);
      expect(after).toMatchObject({
        connection: 'close',
        reused: true,
        body: { jsonrpc: '2.0', id: 2, error: CLOSED },
      });
      await after.socketClosed;
    } finally {
      agent.destroy();
      await provider.destroy();
      await app.endpoint.close();
      await app.closeApp();
      await kernel.close();
    }
    expect(await settled(before)).toEqual({});
  });
});

/** A node served by startServer with one WebSocket client subscribed to newHeads; `closed` is its close code. */
async function serverWithSubscription() {
  const kernel = await createNode({ explorer: false });
  const running = await startServer(kernel, { port: 0, explorerUi: false });
  const ws = await openSocket(running.wsUrl);
  const box = inbox(ws);
  const closed = closeCode(ws);
  await subscribeNewHeads(ws, box);
  return { kernel, running, closed };
}

describe('startServer: either order, twice', () => {
  it('a kernel closed first closes its server and WebSocket connections; server.close() after is harmless', async () => {
    const before = resources();
    const { kernel, running, closed } = await serverWithSubscription();
    await kernel.close();
    expect(await closed).toBe(1001);
    expect(running.server.listening).toBe(false);
    await running.close();
    await kernel.close();
    await running.close();
    expect(await settled(before)).toEqual({});
  });

  it('the server closed first, then the kernel, then both again', async () => {
    const before = resources();
    const { kernel, running, closed } = await serverWithSubscription();
    await running.close();
    expect(await closed).toBe(1001);
    expect(running.server.listening).toBe(false);
    // The kernel still serves in-process until it closes.
    expect(await kernel.request({ method: 'eth_chainId' })).toBe('0x7a69');
    await kernel.close();
    await running.close();
    await kernel.close();
    expect(await settled(before)).toEqual({});
  });
});
