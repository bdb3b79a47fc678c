import type { AccessRefusal } from './access/AccessPolicy.js';
import type { HeaderMap } from './cors.js';

/**
 * A transport-neutral answer. Node's ServerResponse, fastify's reply and koa's context each
 * write it their own way; building it once keeps the three in step.
 */
export interface HttpReply {
  status: number;
  /** Shared objects: writers copy, never mutate. Names are lower-case so merging is case-safe. */
  headers: HeaderMap;
  body: string;
  /** The CORS headers for this request, kept apart so the shared base headers stay shared. */
  cors?: HeaderMap;
}

export const JSON_HEADERS: HeaderMap = Object.freeze({ 'content-type': 'application/json' });
// A body we refused to read leaves the connection in an unknown state: close it after answering.
const CLOSE_HEADERS: HeaderMap = Object.freeze({ 'content-type': 'application/json', connection: 'close' });
const RPC_ALLOW_HEADERS: HeaderMap = Object.freeze({ 'content-type': 'application/json', allow: 'POST, OPTIONS' });
const REST_ALLOW_HEADERS: HeaderMap = Object.freeze({
  'content-type': 'application/json',
  allow: 'GET, HEAD, POST, OPTIONS',
});

/** A JSON-RPC error that belongs to no request (id null), as geth sends for transport-level failures. */
export function rpcErrorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
}

/** 401 and 429 carry their reason; 429 says when to come back (RFC 6585 §4). */
function refusalHeaders(r: AccessRefusal): HeaderMap {
  return r.retryAfter === undefined
    ? JSON_HEADERS
    : { 'content-type': 'application/json', 'retry-after': String(r.retryAfter) };
}

const RPC_METHOD_NOT_ALLOWED = rpcErrorBody(-32600, 'method not allowed: use POST');
const RPC_UNSUPPORTED_MEDIA = rpcErrorBody(-32600, 'invalid content type, only application/json is supported');
const RPC_INTERNAL = rpcErrorBody(-32603, 'internal error');
const REST_NOT_FOUND = JSON.stringify({ message: 'Not found' });
const REST_INTERNAL = JSON.stringify({ message: 'Internal server error' });
const REST_METHOD_NOT_ALLOWED = JSON.stringify({ message: 'Method not allowed' });
const REST_INVALID_JSON = JSON.stringify({ message: 'Invalid JSON body' });
const REST_UNSUPPORTED_MEDIA = JSON.stringify({ message: 'Unsupported content type' });

/** Answers on the JSON-RPC path: error bodies follow JSON-RPC so wallets and libraries can read them. */
export const rpcReplies = {
  ok: (body: string): HttpReply => ({ status: 200, headers: JSON_HEADERS, body }),
  methodNotAllowed: (): HttpReply => ({ status: 405, headers: RPC_ALLOW_HEADERS, body: RPC_METHOD_NOT_ALLOWED }),
  unsupportedMediaType: (): HttpReply => ({ status: 415, headers: JSON_HEADERS, body: RPC_UNSUPPORTED_MEDIA }),
  tooLarge: (limit: number): HttpReply => ({
    status: 413,
    headers: CLOSE_HEADERS,
    body: rpcErrorBody(-32600, `request body too large: limit is ${limit} bytes (maxBodyBytes)`),
  }),
  // A parse error is a JSON-RPC-level failure, so HTTP says 200 (as geth does).
  parseError: (detail: string): HttpReply => ({
    status: 200,
    headers: JSON_HEADERS,
    body: rpcErrorBody(-32700, `parse error: ${detail}`),
  }),
  internal: (): HttpReply => ({ status: 500, headers: JSON_HEADERS, body: RPC_INTERNAL }),
  /** A Host header not in allowedHosts: 403 as geth, a JSON-RPC error body (-32000 as geth's server errors). */
  invalidHost: (message: string): HttpReply => ({
    status: 403,
    headers: JSON_HEADERS,
    body: rpcErrorBody(-32000, message),
  }),
  /** Unknown or missing API key (401), or rate limited (429): a JSON-RPC error body either way. */
  refused: (r: AccessRefusal): HttpReply => ({
    status: r.status,
    headers: refusalHeaders(r),
    body: rpcErrorBody(r.code, r.message),
  }),
};

/** Answers under the REST prefix: Blockscout-style `{ message }` bodies. */
export const restReplies = {
  notFound: (): HttpReply => ({ status: 404, headers: JSON_HEADERS, body: REST_NOT_FOUND }),
  methodNotAllowed: (): HttpReply => ({ status: 405, headers: REST_ALLOW_HEADERS, body: REST_METHOD_NOT_ALLOWED }),
  invalidJson: (): HttpReply => ({ status: 400, headers: JSON_HEADERS, body: REST_INVALID_JSON }),
  unsupportedMediaType: (): HttpReply => ({ status: 415, headers: JSON_HEADERS, body: REST_UNSUPPORTED_MEDIA }),
  tooLarge: (limit: number): HttpReply => ({
    status: 413,
    headers: CLOSE_HEADERS,
    body: JSON.stringify({ message: `request body too large: limit is ${limit} bytes (maxBodyBytes)` }),
  }),
  internal: (): HttpReply => ({ status: 500, headers: JSON_HEADERS, body: REST_INTERNAL }),
  invalidHost: (message: string): HttpReply => ({
    status: 403,
    headers: JSON_HEADERS,
    body: JSON.stringify({ message }),
  }),
  refused: (r: AccessRefusal): HttpReply => ({
    status: r.status,
    headers: refusalHeaders(r),
    body: JSON.stringify({ message: r.status === 429 ? `Too many requests: ${r.message}` : r.message }),
  }),
};

/** Preflight answers carry no body. */
export function preflightReply(headers: HeaderMap): HttpReply {
  return { status: 204, headers, body: '' };
}
