import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Kernel } from '@ashlar/core';
import { createExplorerUi } from '@ashlar/explorer-ui';
import {
  type AccessOptions,
  type CorsOptions,
  createAccessPolicy,
  createHostCheck,
  createHttpHandler,
} from '@ashlar/transport-http';
import { attachWebSocket, type WebSocketEndpoint, type WebSocketOptions } from '@ashlar/transport-ws';
import { sweepIdleSockets } from './idleSockets.js';
import { replyPolling } from './replyPolling.js';

/** PEM certificate chain and private key: HTTPS and WSS on the same port instead of HTTP and WS. */
export interface TlsOptions {
  cert: string | Buffer;
  key: string | Buffer;
}

export interface ServerOptions {
  host?: string;
  port?: number;
  /** CORS: any origin by default (`true`), `false` for none, or `{ origin: [...] }` for a list. */
  cors?: boolean | CorsOptions;
  /**
   * Host names (`Host` header) served besides `localhost` and IP literals; `['*']` for any
   * (geth's `--http.vhosts`). Others get 403, over HTTP and WebSocket: it stops DNS rebinding.
   */
  allowedHosts?: readonly string[];
  /** Largest accepted HTTP request body in bytes (default 5 MiB, as geth). */
  maxBodyBytes?: number;
  /** WebSocket limits (path, maxConnections, …); WS is served on the same host and port as HTTP. */
  ws?: WebSocketOptions;
  /** API keys (`/api/v1/<KEY>`) and rate limits, shared by HTTP and WebSocket (docs/access.md). */
  access?: AccessOptions;
  /** Serve HTTPS and WSS (docs/access.md). */
  tls?: TlsOptions;
  /**
   * Serve the web explorer (packages/explorer-ui) to browsers on this port (default true): a GET
   * that accepts text/html outside /api gets the app, /assets/* its files. `--no-explorer-ui`.
   */
  explorerUi?: boolean;
  /**
   * After each HTTP answer, keep the event loop polling this many µs for the client's next request
   * instead of sleeping (see replyPolling.ts): a client that sends one request after another gets
   * its answers sooner, for at most this much CPU per answer. Default DEFAULT_POLL_AFTER_REPLY_US;
   * 0 turns it off. `--poll-after-reply-us`.
   */
  pollAfterReplyUs?: number;
}

/** The polling window after each answer unless `pollAfterReplyUs` says otherwise. */
export const DEFAULT_POLL_AFTER_REPLY_US = 100;

export interface RunningServer {
  server: Server;
  url: string;
  /** The same endpoint over WebSocket (`ws://host:port`), for subscriptions. */
  wsUrl: string;
  ws: WebSocketEndpoint;
  /**
   * Closes the WebSocket endpoint (connections get 1001) and the server; requests in flight get
   * up to a second to answer. Closing the kernel does this too: the server is there for that
   * kernel alone, so kernel and server may close in either order, and again harmlessly.
   */
  close(): Promise<void>;
}

/** How long closing waits for HTTP answers in flight before cutting their sockets. */
const CLOSE_GRACE_MS = 1_000;
/** How often idle kept-alive connections are looked for: one idle for 60-120 s is closed. */
const KEEP_ALIVE_SWEEP_MS = 60_000;

/** Serves a kernel's JSON-RPC (and REST routes) over HTTP, and JSON-RPC with subscriptions over WebSocket, on host:port. */
export function startServer(kernel: Kernel, options: ServerOptions = {}): Promise<RunningServer> {
  // One policy for both transports: a client's HTTP and WebSocket requests fill one bucket.
  const access = options.access ? createAccessPolicy(options.access) : undefined;
  const pollUs = options.pollAfterReplyUs ?? DEFAULT_POLL_AFTER_REPLY_US;
  const polling = pollUs > 0 ? replyPolling(pollUs) : undefined;
  const handler = createHttpHandler(
    { engine: kernel, routes: kernel.routes },
    {
      cors: options.cors === true ? undefined : options.cors,
      ...(options.allowedHosts !== undefined ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(access ? { access } : {}),
      ...(polling ? { afterReply: polling.poke } : {}),
    },
  );
  // No keep-alive timer per answer: one sweep closes connections idle for 60-120 s (idleSockets.ts).
  const serverOptions = { keepAliveTimeout: 0 };
  // The web explorer answers browsers' page GETs only: one method comparison and the request goes
  // on to the JSON-RPC handler untouched, so POSTs pay nothing for it.
  const ui =
    options.explorerUi === false ? undefined : createExplorerUi({ hostCheck: createHostCheck(options.allowedHosts) });
  const listener = (req: Parameters<typeof handler>[0], res: Parameters<typeof handler>[1]) => {
    if (ui !== undefined && req.method !== 'POST' && ui.handle(req, res)) return;
    handler(req, res);
  };
  // An https.Server is an http.Server with TLS under it: the same listener, upgrades and close.
  const server: Server = options.tls
    ? createHttpsServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, listener)
    : createServer(serverOptions, listener);
  server.headersTimeout = 65_000;
  const idle = sweepIdleSockets(server, KEEP_ALIVE_SWEEP_MS, options.tls ? 'secureConnection' : 'connection');
  const ws = attachWebSocket({ engine: kernel }, server, {
    logger: kernel.logger,
    hostCheck: createHostCheck(options.allowedHosts),
    // This server is ours alone: an upgrade nobody serves is answered at once, not left open.
    refuseUnservedUpgrades: true,
    ...options.ws,
    ...(access ? { access } : {}),
  });
  const scheme = options.tls ? 'https' : 'http';
  const wsScheme = options.tls ? 'wss' : 'ws';
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
      let closing: Promise<void> | undefined;
      const close = (): Promise<void> => {
        closing ??= (async () => {
          detach();
          idle.stop();
          // WebSocket connections first: upgraded sockets would otherwise hold server.close() open.
          await ws.close();
          await new Promise<void>((res) => {
            // A kept-alive socket answering when close() came would stay open till its keep-alive
            // timeout: cut whatever is left after the grace (idle sockets go at once).
            const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
            cut.unref();
            server.close(() => {
              clearTimeout(cut);
              res();
            });
            server.closeIdleConnections();
          });
        })();
        return closing;
      };
      // A kernel closed first closes its server (its own hook and the HTTP handler's let answers in flight go out first).
      const detach = kernel.onClose(() => close());
      resolve({
        server,
        url: `${scheme}://${host}:${a.port}`,
        wsUrl: `${wsScheme}://${host}:${a.port}${path}`,
        ws,
        close,
      });
    });
  });
}
