import { type AccessOptions, AccessPolicy } from './access/AccessPolicy.js';
import type { RestRoutes, RpcEngine } from './coreTypes.js';
import { createHostCheck, type HostCheck } from './hostAllowList.js';

/** Who answers: the JSON-RPC engine (usually the kernel itself) and, optionally, REST routes. */
export interface HttpTarget {
  engine: RpcEngine;
  routes?: RestRoutes;
}

/** Browser origins allowed to call the node; `'*'` in the list allows any. */
export interface CorsOptions {
  origin: string | string[];
}

export interface HttpHandlerOptions {
  /** Where JSON-RPC is served (default `/`). */
  path?: string;
  /**
   * `false` mounts the REST routes alone: no URL answers JSON-RPC (neither `path` nor the keyed
   * `/api/v1/<KEY>` endpoints), e.g. an explorer mounted at `/explorer` beside an RPC mount at `/rpc`.
   * Default `true`.
   */
  rpc?: boolean;
  /** CORS policy: any origin by default (a dev chain is called from dapps on other ports); `false` turns CORS off. */
  cors?: boolean | CorsOptions;
  /** Largest accepted request body in bytes (default 5 MiB, as geth). */
  maxBodyBytes?: number;
  /**
   * Where the registry's `/api/v2` tree (the Blockscout API and plugin routes under it) is mounted
   * (default `/api/v2`). With `/explorer/api/v2`, the route registered at `/api/v2/myapp/notes`
   * is served at `/explorer/api/v2/myapp/notes`, and `/api/v2/…` is left to the app. Registered
   * routes outside `/api/v2` (e.g. Etherscan's `/api`) keep their own paths.
   */
  explorerPrefix?: string;
  /** Called with every unexpected failure (engine rejections, throwing route handlers); defaults to console.error. */
  onError?: (err: unknown) => void;
  /**
   * API keys (`/api/v1/<KEY>`) and per-client rate limits. Pass one `createAccessPolicy(…)` to
   * both this handler and `attachWebSocket` so HTTP and WebSocket share the buckets; plain
   * options build a policy for this handler alone. Default: open, unlimited.
   */
  access?: AccessPolicy | AccessOptions;
  /**
   * Host names (the `Host` header without its port) this handler answers, besides `localhost`
   * and IP literals, which always pass (geth's `--http.vhosts`); `['*']` answers any. Any other
   * `Host` gets 403 before anything else runs: it stops DNS rebinding. Default: none more.
   */
  allowedHosts?: readonly string[];
  /**
   * Called after each answer (JSON-RPC, REST, 404) has been handed to the socket, never for a
   * request whose client left before its body came (the Node listener and the express adapter;
   * koa and fastify write their own answers). The CLI uses it to keep the event loop polling
   * for the client's next request (see the CLI's `--poll-after-reply-us`); metrics are another use.
   * `handledMs` is the time from the request's arrival at the handler to its answer (ms). It must
   * not throw (what it throws goes to `onError`).
   */
  afterReply?: (handledMs: number) => void;
}

export interface ResolvedHttpOptions {
  path: string;
  rpc: boolean;
  cors: false | '*' | readonly string[];
  maxBodyBytes: number;
  explorerPrefix: string;
  onError: (err: unknown) => void;
  access: AccessPolicy | undefined;
  hostCheck: HostCheck;
  afterReply: ((handledMs: number) => void) | undefined;
}

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

/** The registry path the explorer prefix stands for: explorer routes are registered under it. */
export const ROUTES_BASE = '/api/v2';

const defaultOnError = (err: unknown): void => {
  // Server-side only: responses never carry the error, so the log is where a developer sees it.
  console.error('[ashlar] transport-http:', err);
};

/** Drops a trailing slash so `/rpc/` and `/rpc` mean the same mount point; `/` stays `/`. */
function normalizePath(value: string, name: string): string {
  if (typeof value !== 'string' || !value.startsWith('/')) {
    throw new TypeError(`transport-http: ${name} must be a string starting with "/", got ${JSON.stringify(value)}`);
  }
  return value.length > 1 && value.endsWith('/') ? value.slice(0, -1) : value;
}

function resolveCors(cors: HttpHandlerOptions['cors']): ResolvedHttpOptions['cors'] {
  if (cors === undefined || cors === true) return '*';
  if (cors === false) return false;
  const list = Array.isArray(cors.origin) ? cors.origin : [cors.origin];
  return list.includes('*') ? '*' : Object.freeze([...list]);
}

/** Validates once at construction so the per-request path never re-checks options. */
export function resolveOptions(options: HttpHandlerOptions = {}): ResolvedHttpOptions {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new TypeError(`transport-http: maxBodyBytes must be a positive integer, got ${String(maxBodyBytes)}`);
  }
  if (options.rpc !== undefined && typeof options.rpc !== 'boolean') {
    throw new TypeError(`transport-http: rpc must be a boolean, got ${JSON.stringify(options.rpc)}`);
  }
  return {
    path: normalizePath(options.path ?? '/', 'path'),
    rpc: options.rpc ?? true,
    cors: resolveCors(options.cors),
    maxBodyBytes,
    explorerPrefix: normalizePath(options.explorerPrefix ?? ROUTES_BASE, 'explorerPrefix'),
    onError: options.onError ?? defaultOnError,
    access:
      options.access === undefined || options.access instanceof AccessPolicy
        ? options.access
        : new AccessPolicy(options.access),
    hostCheck: createHostCheck(options.allowedHosts),
    afterReply: options.afterReply,
  };
}
