import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does to one HTTP request instead of (or besides) forwarding it:
 * - `status`: answer this HTTP status (with `retryAfter` as the Retry-After header, if given);
 * - `drop`: destroy the socket without answering (a connection reset);
 * - `slow`: wait `ms`, then forward (a client with a shorter timeout gives up first);
 * - `rpcError`: answer HTTP 200 with this JSON-RPC error for every call of the request;
 * - `partial`: forward, then answer only the first `keep` answers of a batch, in reverse order.
 */
export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; body?: string }
  | { kind: 'drop' }
  | { kind: 'slow'; ms: number }
  | { kind: 'rpcError'; code: number; message: string }
  | { kind: 'partial'; keep: number };

/** One request as the proxy saw it. */
export interface ProxyRecord {
  /** Date.now() when its body had arrived. */
  at: number;
  /** The JSON-RPC body: one call or a batch. */
  body: unknown;
  /** Request headers (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
  /** The fault applied, if any. */
  fault?: Fault['kind'];
}

export interface FaultProxy {
  url: string;
  /** Faults for the next requests, one each, in order; requests beyond them are forwarded. */
  enqueue(...faults: Fault[]): void;
  /** A fault for every request from now on (until cleared with undefined), after the queued ones. */
  always(fault: Fault | undefined): void;
  /**
   * Refuse batches (array bodies) of more than `above` calls (0: every batch), as providers without
   * batches (one JSON-RPC error object, HTTP 200) or with a batch limit (HTTP 413) do; undefined: accept all.
   */
  refuseBatches(above: number | undefined): void;
  readonly records: ProxyRecord[];
  /** `connections`: TCP connections accepted (keep-alive reuses them). */
  readonly counters: {
    requests: number;
    forwarded: number;
    faults: number;
    maxInFlight: number;
    calls: number;
    connections: number;
  };
  /** Forget the records and zero the counters. */
  reset(): void;
  close(): Promise<void>;
}

/** A node:http server in front of a JSON-RPC upstream that injects faults on demand and counts what it sees. */
export async function startFaultProxy(upstreamUrl: string): Promise<FaultProxy> {
  const queue: Fault[] = [];
  let standing: Fault | undefined;
  let refuseAbove: number | undefined;
  let inFlight = 0;
  let epoch = 0;
  const records: ProxyRecord[] = [];
  const counters = { requests: 0, forwarded: 0, faults: 0, maxInFlight: 0, calls: 0, connections: 0 };

  const forward = async (text: string): Promise<{ status: number; text: string }> => {
    const res = await fetch(upstreamUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    return { status: res.status, text: await res.text() };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, done: () => void): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body: unknown = JSON.parse(text);
    const fault = queue.shift() ?? standing;
    counters.requests++;
    counters.calls += Array.isArray(body) ? body.length : 1;
    records.push({ at: Date.now(), body, headers: req.headers, ...(fault === undefined ? {} : { fault: fault.kind }) });
    if (fault !== undefined) counters.faults++;

    const send = (status: number, payload: string, headers: Record<string, string> = {}): void => {
      // Out of flight before the answer leaves: the client may send its next request as soon as it has it.
      done();
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(payload);
    };
    const ids = (Array.isArray(body) ? body : [body]).map((c) => (c as { id: unknown }).id);

    if (refuseAbove !== undefined && Array.isArray(body) && body.length > refuseAbove && fault === undefined) {
      const message =
        refuseAbove === 0 ? 'batch requests are not supported' : `batch size too large, max ${refuseAbove}`;
      send(
        refuseAbove === 0 ? 200 : 413,
        JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message } }),
      );
      return;
    }
    switch (fault?.kind) {
      case 'status':
        send(fault.status, fault.body ?? '', fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter });
        return;
      case 'drop':
        done();
        req.socket.destroy();
        return;
      case 'rpcError': {
        const answers = ids.map((id) => ({ jsonrpc: '2.0', id, error: { code: fault.code, message: fault.message } }));
        send(200, JSON.stringify(Array.isArray(body) ? answers : answers[0]));
        return;
      }
      case 'slow':
        await new Promise((r) => setTimeout(r, fault.ms));
        break;
      default:
        break;
    }
    counters.forwarded++;
    const answer = await forward(text);
    if (fault?.kind === 'partial' && Array.isArray(body)) {
      const all = JSON.parse(answer.text) as unknown[];
      send(answer.status, JSON.stringify(all.slice(0, fault.keep).reverse()));
      return;
    }
    if (!res.destroyed) send(answer.status, answer.text);
  };

  const server = createServer((req, res) => {
    inFlight++;
    if (inFlight > counters.maxInFlight) counters.maxInFlight = inFlight;
    const arrivedIn = epoch;
    let finished = false;
    const done = (): void => {
      if (finished) return;
      finished = true;
      if (arrivedIn === epoch) inFlight--;
    };
    res.on('close', done);
    handle(req, res, done).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    });
  });
  server.on('connection', () => {
    counters.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    enqueue: (...faults) => void queue.push(...faults),
    always: (fault) => {
      standing = fault;
    },
    refuseBatches: (above) => {
      refuseAbove = above;
    },
    records,
    counters,
    reset() {
      records.length = 0;
      queue.length = 0;
      standing = undefined;
      refuseAbove = undefined;
      // Requests of earlier tests still open (a slow answer nobody waits for) no longer count.
      epoch++;
      inFlight = 0;
      Object.assign(counters, { requests: 0, forwarded: 0, faults: 0, maxInFlight: 0, calls: 0, connections: 0 });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
