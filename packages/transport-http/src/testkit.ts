/**
 * Test doubles shared by this package's unit tests (excluded from the build). The fake engine
 * answers like the real one in shape only, so the tests pin the transport, not the chain.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RestRequest, RestResponse, RestRoutes, RpcEngine } from './coreTypes.js';

type Json = Record<string, unknown>;

export interface FakeEngine extends RpcEngine {
  /** Every payload handle() received, as received. */
  readonly payloads: unknown[];
}

function answer(req: unknown): Json | undefined {
  if (typeof req !== 'object' || req === null || Array.isArray(req)) {
    return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } };
  }
  const { id, method, params } = req as Json;
  // No id: a notification, which gets no answer.
  if (!('id' in (req as Json))) return undefined;
  if (method === 'eth_chainId') return { jsonrpc: '2.0', id, result: '0x7a69' };
  if (method === 'echo') return { jsonrpc: '2.0', id, result: params };
  return { jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${String(method)} does not exist` } };
}

/** Answers eth_chainId and echo; rejects for method "explode" (to test engine failures). */
export function fakeEngine(): FakeEngine {
  const payloads: unknown[] = [];
  return {
    payloads,
    async handle(payload) {
      payloads.push(payload);
      const calls = Array.isArray(payload) ? payload : [payload];
      if (calls.some((c) => (c as Json | null)?.method === 'explode'))
        throw new Error('engine exploded\n    at secret.ts:1');
      if (!Array.isArray(payload)) return answer(payload) as never;
      const out = payload.map(answer).filter((r) => r !== undefined);
      return (out.length === 0 ? undefined : out) as never;
    },
  };
}

type Handler = (req: RestRequest) => RestResponse | Promise<RestResponse>;

export interface FakeRoutes extends RestRoutes {
  readonly requests: RestRequest[];
}

/**
 * A few routes in the registry's shape: `/api/v2/blocks/:n`, POST `/api/v2/echo`, a throwing
 * `/api/v2/boom`, `/api/v2/csv`, a plugin's `/api/v2/myapp/notes`, and `/plugin/hello` outside
 * the prefix (reported by owns()).
 */
export function fakeRoutes(): FakeRoutes {
  const requests: RestRequest[] = [];
  const record =
    (h: Handler): Handler =>
    (req) => {
      requests.push(req);
      return h(req);
    };
  const block = record((req) => ({
    status: 200,
    body: { height: Number(req.params.n), limit: req.query.get('limit') },
    headers: { 'X-Route': 'block' },
  }));
  const echo = record((req) => ({ status: 201, body: { got: req.body } }));
  const boom = record(() => {
    throw new Error('route exploded\n    at secret.ts:2');
  });
  const csv = record(() => ({ status: 200, body: 'a,b\n1,2\n', headers: { 'Content-Type': 'text/csv' } }));
  const hello = record(() => ({ status: 200, body: { hello: 'world' } }));
  const notes = record((req) => ({ status: 200, body: { notes: [], path: req.path } }));
  return {
    requests,
    owns: (path) => path === '/plugin/hello',
    lookup(method, path): { handler: Handler; params: Record<string, string> } | undefined {
      const get = method === 'GET' || method === 'HEAD';
      const m = /^\/api\/v2\/blocks\/([^/]+)$/.exec(path);
      if (m && get) return { handler: block, params: { n: m[1] as string } };
      if (path === '/api/v2/echo' && method === 'POST') return { handler: echo, params: {} };
      if (path === '/api/v2/boom' && get) return { handler: boom, params: {} };
      if (path === '/api/v2/csv' && get) return { handler: csv, params: {} };
      if (path === '/plugin/hello' && get) return { handler: hello, params: {} };
      if (path === '/api/v2/myapp/notes' && get) return { handler: notes, params: {} };
      return undefined;
    },
  };
}

export interface Served {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Runs a listener on an ephemeral 127.0.0.1 port. */
export async function serve(listener: RequestListener): Promise<Served> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One request with exact control over headers and body chunks (fetch always adds a content
 * type and length). `chunks` are written one by one, so without content-length the body is chunked.
 */
export function raw(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; chunks?: (string | Buffer)[] },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path ?? '/',
        headers: options.headers,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

/** POSTs a JSON value with fetch and returns status, headers and text. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export const INVALID_CONTENT_TYPE =
  '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid content type, only application/json is supported"}}';
