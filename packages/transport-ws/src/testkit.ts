/**
 * Test doubles shared by this package's unit tests (excluded from the build). The fake engine
 * answers like the kernel in shape only, so the tests pin the transport, not the chain.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { type WebSocketEndpoint, attachWebSocket } from './attachWebSocket.js';
import type { JsonRpcResponse, RpcConnection, RpcEngine } from './coreTypes.js';
import type { WebSocketOptions } from './options.js';

type Json = Record<string, unknown>;

export interface FakeEngine extends RpcEngine {
  /** Live fake subscriptions: id → the connection that made it. */
  readonly subscriptions: Map<string, RpcConnection>;
  /** Sends one notification to every live subscription. */
  notifyAll(result: unknown): void;
}

/** eth_chainId, echo, and an eth_subscribe / eth_unsubscribe that notify through `connection.send`. */
export function fakeEngine(): FakeEngine {
  const subscriptions = new Map<string, RpcConnection>();
  let next = 0;
  const answer = (req: unknown, connection: RpcConnection | undefined): JsonRpcResponse | undefined => {
    if (typeof req !== 'object' || req === null || Array.isArray(req)) {
      return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } };
    }
    const { id, method, params } = req as Json;
    const ok = (result: unknown): JsonRpcResponse | undefined =>
      'id' in (req as Json) ? { jsonrpc: '2.0', id: id as string, result } : undefined;
    if (method === 'eth_chainId') return ok('0x7a69');
    if (method === 'echo') return ok(params);
    if (method === 'eth_subscribe' && connection) {
      const sid = `0x${(++next).toString(16).padStart(32, '0')}`;
      subscriptions.set(sid, connection);
      return ok(sid);
    }
    if (method === 'eth_unsubscribe' && Array.isArray(params)) return ok(subscriptions.delete(String(params[0])));
    return {
      jsonrpc: '2.0',
      id: (id as string) ?? null,
      error: { code: -32601, message: `the method ${String(method)} does not exist` },
    };
  };
  return {
    subscriptions,
    notifyAll(result) {
      for (const [subscription, c] of subscriptions) {
        c.send({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription, result } });
      }
    },
    async handle(payload, ctx) {
      const connection = ctx?.connection as RpcConnection | undefined;
      if (!Array.isArray(payload)) return answer(payload, connection);
      const out = payload.map((p) => answer(p, connection)).filter((r) => r !== undefined);
      return out.length > 0 ? out : undefined;
    },
  };
}

export interface Served {
  server: Server;
  endpoint: WebSocketEndpoint;
  /** `ws://127.0.0.1:<port>` (no path). */
  base: string;
  close(): Promise<void>;
}

export const silentLogger = { warn() {}, error() {} };

/** A plain HTTP server on a free loopback port with the endpoint attached. */
export async function serve(
  engine: RpcEngine,
  options: WebSocketOptions = {},
  server = createServer(),
): Promise<Served> {
  const endpoint = attachWebSocket({ engine }, server, { logger: silentLogger, ...options });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    endpoint,
    base: `ws://127.0.0.1:${port}`,
    async close() {
      await endpoint.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Opens a client and resolves once it is connected. */
export function connect(url: string, options?: WebSocket.ClientOptions): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Resolves with the close code and reason the client saw. */
export function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve({ code: -1, reason: 'already closed' });
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** The JSON messages a client receives, awaitable one by one. */
export class Inbox {
  readonly messages: unknown[] = [];
  private waiters: (() => void)[] = [];
  private read = 0;

  constructor(ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()));
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** The next message not yet returned by next(). */
  async next<T = Json>(): Promise<T> {
    while (this.read >= this.messages.length) await new Promise<void>((r) => this.waiters.push(r));
    return this.messages[this.read++] as T;
  }
}

/** Sends a call and awaits the answer with its id (other messages stay in the inbox). */
export async function call<T = Json>(ws: WebSocket, inbox: Inbox, body: Json | Json[]): Promise<T> {
  ws.send(JSON.stringify(body));
  return inbox.next<T>();
}
