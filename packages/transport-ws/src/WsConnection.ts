import type { Duplex } from 'node:stream';
import { type RawData, WebSocket } from 'ws';
import type {
  JsonRpcResponse,
  RpcConnection,
  RpcEngine,
  WsAccessGate,
  WsAccessRefusal,
  WsLogger,
} from './coreTypes.js';
import type { Flushable, FlushScheduler } from './FlushScheduler.js';
import { encodeTextFrames } from './frames.js';
import { byteLengthOf, type Encoded } from './serialize.js';
import { type Admission, SubscriptionQuota } from './SubscriptionQuota.js';

/** What every connection of one endpoint shares. */
export interface ConnectionContext {
  engine: RpcEngine;
  serialize: (message: unknown) => Encoded;
  maxBufferedBytes: number;
  maxSubscriptions: number;
  /** Pings answered per second; more in the same second are dropped, ten times more cut the client. */
  maxPingsPerSecond: number;
  logger: WsLogger;
  /** When queued notifications are written. */
  scheduler: FlushScheduler;
  /** Called once, when the connection is gone. */
  onGone(connection: WsConnection, reason: DropReason | undefined): void;
}

export type DropReason = 'slow-consumer' | 'dead-peer' | 'ping-flood';

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const rpcError = (code: number, message: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });

const INTERNAL_ERROR = rpcError(-32603, 'internal error');

/** A batch this large is written at once instead of waiting for the scheduler. */
const FLUSH_NOW_BYTES = 64 * 1024;

function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * One WebSocket client: JSON-RPC in (text frames, single calls and batches), answers and
 * subscription notifications out, with a bounded send backlog.
 */
export class WsConnection implements Flushable {
  /** The connection as handlers see it (`ctx.connection`): subscriptions notify through `send`. */
  readonly rpc: RpcConnection;
  /** Heartbeat: cleared by each ping, set again by the pong (or any message). */
  private alive = true;
  private closed = false;
  private dropReason: DropReason | undefined;
  private readonly closeHandlers: (() => void)[] = [];
  private readonly quota: SubscriptionQuota;
  /** Notifications waiting while an eth_subscribe answer is in flight (so none overtakes it). */
  private held: Encoded[] | undefined;
  private holds = 0;
  /** Notifications waiting for the scheduler's next flush. */
  private queue: Encoded[] = [];
  /** Bytes in `held` and `queue`: backlog the socket has not seen yet. */
  private queuedBytes = 0;
  private corked = false;
  /** Pings seen in the current one-second window, and when it started. */
  private pings = 0;
  private pingWindowStart = 0;
  private readonly closedPromise: Promise<void>;
  /** Messages handed to the engine and not yet answered: close() lets them answer first. */
  private inFlight = 0;
  /** Called when inFlight drops to 0 (set while close() waits for answers). */
  private onIdle: (() => void) | undefined;
  private closeStarted = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
    readonly id: string,
    private readonly ctx: ConnectionContext,
    /** Charges this connection's requests to its client's rate limit; absent: unlimited. */
    private readonly gate?: WsAccessGate,
  ) {
    this.quota = new SubscriptionQuota(ctx.maxSubscriptions);
    this.rpc = {
      id,
      send: (message) => this.notify(message),
      onClose: (fn) => {
        // Registered after the close (a call that was in flight): run it anyway, but after the
        // caller has finished registering whatever the handler undoes.
        if (this.closed) queueMicrotask(fn);
        else this.closeHandlers.push(fn);
      },
    };
    this.closedPromise = new Promise((resolve) => ws.once('close', () => resolve()));
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('pong', () => {
      this.alive = true;
    });
    // The endpoint turns ws' automatic pong off: a client that pings and never reads would
    // otherwise fill the send buffer with pongs, past the backlog limit that only our writes checked.
    ws.on('ping', (data) => this.onPing(data));
    // Protocol errors (an oversize frame, bad UTF-8) arrive here; ws then closes with the
    // matching code (1009, 1007). Nothing to add but not to crash.
    ws.on('error', () => {});
    ws.once('close', () => this.onClosed());
  }

  /** Live subscriptions of this connection, as counted from its traffic. */
  get subscriptions(): number {
    return this.quota.size;
  }

  /** Bytes waiting to be sent to this client (queued here or buffered by the socket). */
  get bufferedBytes(): number {
    return this.backlog();
  }

  /** One heartbeat tick: drop the peer if it never answered the last ping, else ping again. */
  heartbeat(): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (!this.alive) {
      this.drop('dead-peer', 'dropped a peer that did not answer a ping within one heartbeat interval');
      return;
    }
    this.alive = false;
    this.ws.ping();
  }

  /**
   * Closes with `code` once the requests in flight have answered (waiting at most `graceMs`;
   * messages arriving meanwhile are still answered, by a closed kernel with its refusal); a
   * socket that does not finish the close handshake within another `graceMs` is cut.
   */
  close(code: number, reason: string, graceMs: number): Promise<void> {
    if (!this.closed && !this.closeStarted) {
      this.closeStarted = true;
      void this.answered(graceMs).then(() => {
        if (this.closed) return;
        this.ws.close(code, reason);
        const cut = setTimeout(() => this.ws.terminate(), graceMs);
        cut.unref();
        void this.closedPromise.then(() => clearTimeout(cut));
      });
    }
    return this.closedPromise;
  }

  /** Resolves when nothing is in flight, or after `graceMs`, or when the peer leaves. */
  private answered(graceMs: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.onIdle = undefined;
        resolve();
      };
      const timer = setTimeout(done, graceMs);
      timer.unref();
      this.onIdle = done;
      void this.closedPromise.then(done);
    });
  }

  /**
   * RFC 6455 §5.5.3 lets an endpoint answer only the latest of several pings, so pings past the
   * rate go unanswered; a client that sends ten times the rate is not keeping a connection alive
   * and is cut. Each pong counts against the backlog like any other write.
   */
  private onPing(data: Buffer): void {
    this.alive = true;
    const now = Date.now();
    if (now - this.pingWindowStart >= 1000) {
      this.pingWindowStart = now;
      this.pings = 0;
    }
    const limit = this.ctx.maxPingsPerSecond;
    if (++this.pings > limit) {
      if (this.pings > limit * 10) {
        this.drop(
          'ping-flood',
          `dropped a client that sent more than ${limit * 10} pings in one second (maxPingsPerSecond is ${limit})`,
          1008,
        );
      }
      return;
    }
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.pong(data);
    if (this.backlog() > this.ctx.maxBufferedBytes) this.dropSlow();
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    this.alive = true;
    if (isBinary) {
      this.ws.close(1003, 'binary frames are not supported: send JSON-RPC as text');
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(frameText(data));
    } catch (e) {
      // A bad frame is the client's mistake in one message, not a reason to drop its subscriptions.
      this.write(rpcError(-32700, `parse error: ${errorText(e)}`));
      return;
    }
    if (this.gate !== undefined) {
      const refused = this.gate.charge(Array.isArray(payload) && payload.length > 1 ? payload.length : 1);
      if (refused !== undefined) {
        this.refuse(payload, refused);
        return;
      }
    }
    const adm = this.quota.admit(payload);
    const holding = adm.subscribes.length > 0;
    if (holding) this.holds++;
    this.inFlight++;
    void this.answer(adm).finally(() => {
      if (holding && --this.holds === 0) this.release();
      if (--this.inFlight === 0) this.onIdle?.();
    });
  }

  private async answer(adm: Admission): Promise<void> {
    let response: JsonRpcResponse | JsonRpcResponse[] | undefined;
    if (adm.forward !== undefined) {
      try {
        response = await this.ctx.engine.handle(adm.forward, { connection: this.rpc });
      } catch (e) {
        // The engine answers its own errors as JSON-RPC; a rejection is a bug, not a client error.
        this.ctx.logger.error(`engine failed on ${this.id}: ${e instanceof Error ? (e.stack ?? e.message) : e}`);
        this.quota.settle(adm, undefined);
        this.write(INTERNAL_ERROR);
        return;
      }
      this.quota.settle(adm, response);
    }
    let out: JsonRpcResponse | JsonRpcResponse[] | undefined = response;
    if (adm.refused.length > 0) {
      // Batch answers may come in any order (JSON-RPC 2.0 §6): refusals go last.
      if (Array.isArray(adm.forward) || Array.isArray(response) || adm.refused.length > 1) {
        out = [...(Array.isArray(response) ? response : response ? [response] : []), ...adm.refused];
      } else {
        out = response ?? adm.refused[0];
      }
    }
    if (out === undefined) return;
    let text: string;
    try {
      text = this.ctx.engine.jsonOf?.(out) ?? JSON.stringify(out);
    } catch (e) {
      this.ctx.logger.error(`cannot serialise an answer on ${this.id}: ${errorText(e)}`);
      text = INTERNAL_ERROR;
    }
    this.write(text);
  }

  /** Rate limited: each request gets the error under its own id; notifications get nothing, as ever. */
  private refuse(payload: unknown, r: WsAccessRefusal): void {
    const error = { code: r.code, message: r.message };
    const one = (req: unknown): JsonRpcResponse | undefined => {
      if (typeof req !== 'object' || req === null || Array.isArray(req)) return { jsonrpc: '2.0', id: null, error };
      if (!('id' in req)) return undefined;
      const id = (req as { id: unknown }).id;
      const valid = id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
      return { jsonrpc: '2.0', id: valid ? (id as string | number | null) : null, error };
    };
    let out: JsonRpcResponse | JsonRpcResponse[] | undefined;
    if (Array.isArray(payload) && payload.length > 0) {
      const list = payload.map(one).filter((x): x is JsonRpcResponse => x !== undefined);
      out = list.length > 0 ? list : undefined;
    } else out = one(payload);
    if (out !== undefined) this.write(JSON.stringify(out));
  }

  private notify(message: unknown): void {
    if (this.closed) return;
    const encoded = this.ctx.serialize(message);
    this.queuedBytes += byteLengthOf(encoded);
    if (this.holds > 0) {
      this.held ??= [];
      this.held.push(encoded);
    } else {
      this.queue.push(encoded);
      // Batching saves syscalls, not bytes: a full batch goes without waiting for its turn, so
      // the queue never holds much, and a client that keeps reading is never mistaken for slow.
      if (this.queuedBytes >= FLUSH_NOW_BYTES) this.flush();
      else this.ctx.scheduler.request(this);
    }
    // Queued text is backlog too: it counts against the same limit as the socket's buffer.
    if (this.backlog() > this.ctx.maxBufferedBytes) this.dropSlow();
  }

  /** The eth_subscribe answers are out: held notifications may follow. */
  private release(): void {
    const held = this.held;
    this.held = undefined;
    if (held === undefined) return;
    for (const encoded of held) this.queue.push(encoded);
    this.ctx.scheduler.request(this);
  }

  /** Writes the queued notifications as one buffer of frames: one syscall for the batch. */
  flush(): void {
    if (this.queue.length === 0) return;
    const queue = this.queue;
    this.queue = [];
    this.queuedBytes = this.held === undefined ? 0 : this.queuedBytes - queue.reduce((n, e) => n + byteLengthOf(e), 0);
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.socket.write(encodeTextFrames(queue));
    if (this.backlog() > this.ctx.maxBufferedBytes) this.dropSlow();
  }

  /** Sends an answer; notifications queued before it go first, so none arrives out of order. */
  private write(text: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.flush();
    // Answers to a burst of requests leave together at the end of the tick.
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.ws.send(text);
    if (this.backlog() > this.ctx.maxBufferedBytes) this.dropSlow();
  }

  private backlog(): number {
    return this.ws.bufferedAmount + this.queuedBytes;
  }

  private dropSlow(): void {
    this.drop(
      'slow-consumer',
      `dropped a client that stopped reading: ${this.backlog()} bytes waiting to be sent, limit is ${this.ctx.maxBufferedBytes} (maxBufferedBytes)`,
      1013,
    );
  }

  /**
   * Cuts the socket at once: its backlog is freed with it, which a polite close could not do.
   * The close frame (`code`: 1008 policy violation, 1013 try again later) is written straight to
   * the socket first, ahead of nothing the client has not read yet, so a client that does read
   * learns why; the socket is destroyed without waiting for it.
   */
  private drop(reason: DropReason, message: string, code = 1013): void {
    if (this.dropReason !== undefined || this.closed) return;
    this.dropReason = reason;
    this.held = undefined;
    this.queue = [];
    this.queuedBytes = 0;
    this.ctx.logger.warn(`${this.id}: ${message}`);
    if (reason !== 'dead-peer') {
      try {
        this.ws.close(code, reason);
      } catch {}
    }
    this.ws.terminate();
  }

  private onClosed(): void {
    this.closed = true;
    this.held = undefined;
    this.queue = [];
    this.queuedBytes = 0;
    for (const fn of this.closeHandlers.splice(0)) {
      try {
        fn();
      } catch (e) {
        this.ctx.logger.error(`a close handler of ${this.id} failed: ${errorText(e)}`);
      }
    }
    this.ctx.onGone(this, this.dropReason);
  }
}
