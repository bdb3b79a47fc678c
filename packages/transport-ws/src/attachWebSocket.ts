import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { resolveOptions, type WebSocketOptions, type WebSocketTarget } from './options.js';
import { FlushScheduler } from './FlushScheduler.js';
import { createSerializer } from './serialize.js';
import type { WsAccessGate } from './coreTypes.js';
import { isWebSocketUpgrade, ownsUpgrade, pathOf, refuseUnserved, refuseUpgrade } from './upgrade.js';
import { type ConnectionContext, type DropReason, WsConnection } from './WsConnection.js';

/** What an endpoint has seen; cheap to read, for operators and tests. */
export interface WebSocketStats {
  /** Open connections. */
  connections: number;
  /** Live subscriptions over all connections. */
  subscriptions: number;
  /** Bytes waiting to be sent, over all connections. */
  bufferedBytes: number;
  /** Upgrades refused because maxConnections was reached. */
  refusedConnections: number;
  /** Clients cut because their backlog passed maxBufferedBytes. */
  droppedSlowConsumers: number;
  /** Clients cut because they stopped answering pings. */
  droppedDeadPeers: number;
  /** Clients cut because they sent pings ten times faster than maxPingsPerSecond. */
  droppedPingFloods: number;
  /** Upgrades answered 400 because nothing here serves them (refuseUnservedUpgrades). */
  refusedUnservedUpgrades: number;
}

export interface WebSocketEndpoint {
  /** The path it answers on. */
  readonly path: string;
  stats(): WebSocketStats;
  /**
   * Stops taking upgrades, lets requests in flight answer, closes every connection (1001, which
   * ends their subscriptions) and stops the heartbeat. The engine's close does the same on its
   * own (a kernel closed first), except that upgrades to this path are then refused with 503
   * and the kernel's error until this is called. Closing again answers the same promise.
   */
  close(): Promise<void>;
}

/**
 * Serves JSON-RPC over WebSocket on an existing HTTP(S) server, through its 'upgrade' event:
 * plain node:http, or the server under express, fastify or koa. Upgrades to other paths are
 * left alone for other listeners.
 *
 * @example
 * const server = http.createServer(createHttpHandler({ engine: kernel }));
 * const ws = attachWebSocket({ engine: kernel }, server);
 * server.listen(8545); // http://… and ws://… on one port
 */
export function attachWebSocket(
  target: WebSocketTarget,
  server: HttpServer | HttpsServer,
  options?: WebSocketOptions,
): WebSocketEndpoint {
  const o = resolveOptions(options);
  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: o.maxFrameBytes,
    // Pongs are ours to send (WsConnection.onPing): rate-bounded and counted in the backlog.
    autoPong: false,
  });
  const connections = new Set<WsConnection>();
  const counters = {
    refusedConnections: 0,
    droppedSlowConsumers: 0,
    droppedDeadPeers: 0,
    droppedPingFloods: 0,
    refusedUnservedUpgrades: 0,
  };
  // Ids unique across endpoints in one process, for logs (subscriptions key on the object).
  const idPrefix = `ws-${randomBytes(3).toString('hex')}`;
  let nextId = 0;
  let closing: Promise<void> | undefined;
  /** The error every call gets once the engine has closed (it closed this endpoint's connections). */
  let engineClosed: { code: number; message: string } | undefined;
  const scheduler = new FlushScheduler(o.flushIntervalMs);

  const ctx: ConnectionContext = {
    engine: target.engine,
    serialize: createSerializer(),
    maxBufferedBytes: o.maxBufferedBytes,
    maxSubscriptions: o.maxSubscriptionsPerConnection,
    maxPingsPerSecond: o.maxPingsPerSecond,
    logger: o.logger,
    scheduler,
    onGone(c: WsConnection, reason: DropReason | undefined) {
      connections.delete(c);
      if (reason === 'slow-consumer') counters.droppedSlowConsumers++;
      else if (reason === 'dead-peer') counters.droppedDeadPeers++;
      else if (reason === 'ping-flood') counters.droppedPingFloods++;
    },
  };

  const notOurs = (req: IncomingMessage, socket: Duplex): void => {
    if (!o.refuseUnservedUpgrades) return;
    counters.refusedUnservedUpgrades++;
    refuseUnserved(req, socket, o.path);
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    let gate: WsAccessGate | undefined;
    if (o.access === undefined) {
      if (!ownsUpgrade(req, o.path)) {
        notOurs(req, socket);
        return;
      }
    } else {
      const decision = isWebSocketUpgrade(req) ? o.access.admitUpgrade(req, pathOf(req.url), o.path) : undefined;
      if (decision === undefined) {
        notOurs(req, socket);
        return;
      }
      if (!('kind' in decision)) {
        refuseUpgrade(socket, decision.status, decision.code, decision.message, decision.retryAfter);
        return;
      }
      gate = decision;
    }
    if (engineClosed !== undefined) {
      refuseUpgrade(socket, 503, engineClosed.code, engineClosed.message);
      return;
    }
    const badHost = o.hostCheck?.(req.headers.host);
    if (badHost !== undefined) {
      refuseUpgrade(socket, 403, -32000, badHost);
      return;
    }
    if (connections.size >= o.maxConnections) {
      counters.refusedConnections++;
      refuseUpgrade(
        socket,
        503,
        -32005,
        `too many WebSocket connections: limit is ${o.maxConnections} (maxConnections); try again later`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const c = new WsConnection(ws, socket, `${idPrefix}-${++nextId}`, ctx, gate);
      connections.add(c);
      // A handshake that finished while the endpoint closes: closed like the others.
      if (closing !== undefined) void c.close(1001, 'server is shutting down', o.closeGraceMs);
    });
  };
  server.on('upgrade', onUpgrade);

  const heartbeat =
    o.heartbeatMs > 0
      ? setInterval(() => {
          for (const c of connections) c.heartbeat();
        }, o.heartbeatMs)
      : undefined;
  // The heartbeat serves connections; it must never be what keeps a process alive.
  heartbeat?.unref();

  /** Connections, heartbeat and flush timer: everything the endpoint holds but its upgrade listener. */
  const closeConnections = (): Promise<void> => {
    closing ??= (async () => {
      if (heartbeat) clearInterval(heartbeat);
      await Promise.all([...connections].map((c) => c.close(1001, 'server is shutting down', o.closeGraceMs)));
      scheduler.close();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    })();
    return closing;
  };
  // A kernel closed first closes this endpoint's connections (their subscriptions with them).
  const detach = target.engine.onClose?.((refusal) => {
    engineClosed = refusal;
    return closeConnections();
  });

  return {
    path: o.path,
    stats() {
      let subscriptions = 0;
      let bufferedBytes = 0;
      for (const c of connections) {
        subscriptions += c.subscriptions;
        bufferedBytes += c.bufferedBytes;
      }
      return { connections: connections.size, subscriptions, bufferedBytes, ...counters };
    },
    close() {
      server.off('upgrade', onUpgrade);
      detach?.();
      return closeConnections();
    },
  };
}
