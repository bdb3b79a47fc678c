import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kernel } from '@ashlar/core';
import { createHttpHandler } from '@ashlar/transport-http';
import { attachWebSocket, type WebSocketEndpoint, type WebSocketOptions } from '@ashlar/transport-ws';

export interface ServerOptions {
  host?: string;
  port?: number;
  cors?: boolean;
  /** WebSocket limits (path, maxConnections, …); WS is served on the same host and port as HTTP. */
  ws?: WebSocketOptions;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** The same endpoint over WebSocket (`ws://host:port`), for subscriptions. */
  wsUrl: string;
  ws: WebSocketEndpoint;
  close(): Promise<void>;
}

/** Serves a kernel's JSON-RPC (and REST routes) over HTTP, and JSON-RPC with subscriptions over WebSocket, on host:port. */
export function startServer(kernel: Kernel, options: ServerOptions = {}): Promise<RunningServer> {
  const handler = createHttpHandler(
    { engine: kernel, routes: kernel.routes },
    { cors: options.cors === false ? false : undefined },
  );
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => handler(req, res));
  server.headersTimeout = 65_000;
  const ws = attachWebSocket({ engine: kernel }, server, { logger: kernel.logger, ...options.ws });
  return new Promise((resolve, reject) => {
    const fail = (e: Error) => {
      void ws.close();
      reject(e);
    };
    server.once('error', fail);
    server.listen(options.port ?? 8545, options.host ?? '127.0.0.1', () => {
      server.off('error', fail);
      const a = server.address() as AddressInfo;
      const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      const path = ws.path === '/' ? '' : ws.path;
      resolve({
        server,
        url: `http://${host}:${a.port}`,
        wsUrl: `ws://${host}:${a.port}${path}`,
        ws,
        // WebSocket connections first: upgraded sockets would otherwise hold server.close() open.
        close: async () => {
          await ws.close();
          await new Promise<void>((res) => {
            server.close(() => res());
            server.closeAllConnections();
          });
        },
      });
    });
  });
}
