import type { RpcEngine, WsAccess, WsLogger } from './coreTypes.js';

/** Who answers: the JSON-RPC engine (usually the kernel itself). */
export interface WebSocketTarget {
  engine: RpcEngine;
}

export interface WebSocketOptions {
  /** Path of the WebSocket endpoint (default `/`); upgrades to other paths are left to other listeners. */
  path?: string;
  /** Most open connections; one more is refused with HTTP 503 and a JSON-RPC error body (default 10,000). */
  maxConnections?: number;
  /** Most live subscriptions per connection; one more eth_subscribe gets error -32005 (default 1,000). */
  maxSubscriptionsPerConnection?: number;
  /** Largest frame (message) a client may send, in bytes; a larger one closes the connection with 1009 (default 32 MiB, as geth). */
  maxFrameBytes?: number;
  /**
   * Most bytes waiting to be sent to one client. A client that stops reading is disconnected
   * once its backlog passes this, so it cannot make the node hold its notifications forever
   * (default 16 MiB).
   */
  maxBufferedBytes?: number;
  /**
   * Pings a client may send per second and get a pong for; pings past that go unanswered
   * (RFC 6455 allows answering only the latest), and ten times that in one second cuts the
   * client with close code 1008 (default 100).
   */
  maxPingsPerSecond?: number;
  /** Ping interval in ms; a peer that has not answered the previous ping is dropped. 0 turns pings off (default 30 s). */
  heartbeatMs?: number;
  /**
   * While notifications stream in, write to each connection at most once per this many ms,
   * batching what came in between; the first notification after a quiet spell leaves at once.
   * Each write is a syscall per connection, so under a burst of blocks this is what keeps
   * fan-out from slowing the chain. 0: write at the end of every tick (default 40 ms: with
   * 100 subscribers under automine, 20 ms kept 0.75–0.79 of the chain's tx/s and a p50 delay
   * of 11 ms, 40 ms keeps 0.82 at 23 ms; a lone event still leaves at once).
   */
  flushIntervalMs?: number;
  /**
   * On `close()` (or the engine's close), how long requests in flight may take to answer before
   * the close frame goes, and then how long clients have to answer it before their sockets are
   * cut, in ms (default 1 s each).
   */
  closeGraceMs?: number;
  /** Dropped peers (warn) and unexpected failures (error); defaults to the console. */
  logger?: WsLogger;
  /**
   * API keys (upgrades to `/api/v1/<KEY>` too) and rate limits (each request of a batch counts;
   * so does the upgrade): the `createAccessPolicy()` given to the HTTP handler. Default: open.
   */
  access?: WsAccess;
  /**
   * Which `Host` headers may upgrade: undefined for an allowed one, else the refusal's message
   * (`createHostCheck` of @ashlar/transport-http, the HTTP handler's `allowedHosts`); a refused
   * upgrade gets 403 with that message. Default: any.
   */
  hostCheck?: (host: string | undefined) => string | undefined;
  /**
   * Answer every upgrade this endpoint does not serve (another protocol such as `h2c`, or a
   * WebSocket on another path) at once with 400 and close it. Only for a server this endpoint
   * owns alone, as `startServer` does: otherwise other 'upgrade' listeners could never see them
   * (default false: they are left alone, and with no other listener they hang until the client leaves).
   */
  refuseUnservedUpgrades?: boolean;
}

export interface ResolvedWsOptions {
  path: string;
  maxConnections: number;
  maxSubscriptionsPerConnection: number;
  maxFrameBytes: number;
  maxBufferedBytes: number;
  maxPingsPerSecond: number;
  heartbeatMs: number;
  flushIntervalMs: number;
  closeGraceMs: number;
  logger: WsLogger;
  access: WsAccess | undefined;
  hostCheck: ((host: string | undefined) => string | undefined) | undefined;
  refuseUnservedUpgrades: boolean;
}

export const DEFAULT_MAX_CONNECTIONS = 10_000;
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_CONNECTION = 1_000;
/** geth's WebSocket read limit. */
export const DEFAULT_MAX_FRAME_BYTES = 32 * 1024 * 1024;
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_PINGS_PER_SECOND = 100;
export const DEFAULT_HEARTBEAT_MS = 30_000;
/** See `flushIntervalMs`; `npm run bench -- --only=ws` measures the trade. */
export const DEFAULT_FLUSH_INTERVAL_MS = 40;

const consoleLogger: WsLogger = {
  warn: (m) => console.warn(`[ashlar] transport-ws: ${m}`),
  error: (m) => console.error(`[ashlar] transport-ws: ${m}`),
};

function positiveInteger(value: number | undefined, fallback: number, name: string, allowZero = false): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < (allowZero ? 0 : 1)) {
    throw new TypeError(
      `transport-ws: ${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${String(value)}`,
    );
  }
  return v;
}

/** Drops a trailing slash so `/ws/` and `/ws` mean the same endpoint; `/` stays `/`. */
function normalizePath(value: string): string {
  if (typeof value !== 'string' || !value.startsWith('/')) {
    throw new TypeError(`transport-ws: path must be a string starting with "/", got ${JSON.stringify(value)}`);
  }
  return value.length > 1 && value.endsWith('/') ? value.slice(0, -1) : value;
}

/** Validates once at attach time, naming the option at fault. */
export function resolveOptions(o: WebSocketOptions = {}): ResolvedWsOptions {
  return {
    path: normalizePath(o.path ?? '/'),
    maxConnections: positiveInteger(o.maxConnections, DEFAULT_MAX_CONNECTIONS, 'maxConnections'),
    maxSubscriptionsPerConnection: positiveInteger(
      o.maxSubscriptionsPerConnection,
      DEFAULT_MAX_SUBSCRIPTIONS_PER_CONNECTION,
      'maxSubscriptionsPerConnection',
    ),
    maxFrameBytes: positiveInteger(o.maxFrameBytes, DEFAULT_MAX_FRAME_BYTES, 'maxFrameBytes'),
    maxBufferedBytes: positiveInteger(o.maxBufferedBytes, DEFAULT_MAX_BUFFERED_BYTES, 'maxBufferedBytes'),
    maxPingsPerSecond: positiveInteger(o.maxPingsPerSecond, DEFAULT_MAX_PINGS_PER_SECOND, 'maxPingsPerSecond'),
    heartbeatMs: positiveInteger(o.heartbeatMs, DEFAULT_HEARTBEAT_MS, 'heartbeatMs', true),
    flushIntervalMs: positiveInteger(o.flushIntervalMs, DEFAULT_FLUSH_INTERVAL_MS, 'flushIntervalMs', true),
    closeGraceMs: positiveInteger(o.closeGraceMs, 1_000, 'closeGraceMs', true),
    logger: o.logger ?? consoleLogger,
    access: o.access,
    hostCheck: o.hostCheck,
    refuseUnservedUpgrades: o.refuseUnservedUpgrades === true,
  };
}
