import type { RequestHead } from '../request.js';
import { ApiKeySet } from './apiKeys.js';
import { clientAddress } from './clientAddress.js';
import { checkRateLimit, type RateLimit, RateLimiter } from './RateLimiter.js';

/** Where keyed JSON-RPC endpoints live: `/api/v1/<KEY>`, the managed-node URL form of spec §5.2. */
export const API_KEY_PREFIX = '/api/v1/';

export interface AccessOptions {
  /** API keys: JSON-RPC is also served at `/api/v1/<KEY>` over HTTP and WebSocket. */
  apiKeys?: readonly string[];
  /** Serve JSON-RPC only on keyed endpoints: the open ones answer 401 (needs apiKeys). */
  requireApiKey?: boolean;
  /** Per client address on the open JSON-RPC endpoints, HTTP and WebSocket together (default: none). */
  rateLimit?: RateLimit;
  /** Per API key on the keyed endpoints (default: none). */
  keyRateLimit?: RateLimit;
  /** Per client address on REST routes (`/api/v2`; default: none). */
  explorerRateLimit?: RateLimit;
  /** Take the client address from X-Forwarded-For (set only behind a reverse proxy you run). */
  trustProxy?: boolean;
  /** Most clients tracked per limit; past it the oldest bucket is dropped (default 100,000). */
  maxTrackedClients?: number;
}

/** A request or connection we will not serve, as transport-neutral data (HTTP status, JSON-RPC error). */
export interface AccessRefusal {
  status: 401 | 429;
  code: number;
  message: string;
  /** Seconds, for Retry-After. */
  retryAfter?: number;
}

/** Charges the requests of one WebSocket connection against its client's bucket. */
export interface AccessGate {
  readonly kind: 'gate';
  charge(n: number): AccessRefusal | undefined;
}

/** The JSON-RPC code of an unknown or missing key (a server error, as geth answers auth failures). */
export const UNAUTHORIZED_CODE = -32000;
/** -32005 "limit exceeded" (EIP-1474), what Infura answers when a client is rate limited. */
export const RATE_LIMITED_CODE = -32005;

const UNKNOWN_KEY: AccessRefusal = Object.freeze({
  status: 401,
  code: UNAUTHORIZED_CODE,
  message: 'unauthorized: unknown API key',
});
const KEY_REQUIRED: AccessRefusal = Object.freeze({
  status: 401,
  code: UNAUTHORIZED_CODE,
  message: 'unauthorized: this node serves JSON-RPC only at /api/v1/<API key> (requireApiKey)',
});

const ALLOW_ALL: AccessGate = Object.freeze({ kind: 'gate', charge: () => undefined });

function limiter<K>(limit: RateLimit | undefined, name: string, max: number): RateLimiter<K> | undefined {
  return limit === undefined ? undefined : new RateLimiter<K>(checkRateLimit(limit, name), max);
}

function describe(limit: RateLimit | undefined): string {
  if (limit === undefined) return '';
  const c = checkRateLimit(limit, 'limit');
  return `${c.requestsPerSecond} requests per second, burst ${c.burst}`;
}

/**
 * API keys and per-client rate limits for one node, shared by its HTTP and WebSocket transports
 * so a client's requests count against one bucket whichever way they come.
 */
export class AccessPolicy {
  readonly requireApiKey: boolean;
  private readonly keys: ApiKeySet | undefined;
  private readonly trustProxy: boolean;
  private readonly open: RateLimiter<string> | undefined;
  private readonly keyed: RateLimiter<number> | undefined;
  private readonly rest: RateLimiter<string> | undefined;
  private readonly texts: { open: string; keyed: string; rest: string };

  constructor(options: AccessOptions = {}) {
    const keys = options.apiKeys ?? [];
    if (!Array.isArray(keys)) throw new TypeError('transport-http: apiKeys must be an array of strings');
    this.keys = keys.length > 0 ? new ApiKeySet(keys) : undefined;
    this.requireApiKey = options.requireApiKey === true;
    if (this.requireApiKey && this.keys === undefined) {
      throw new TypeError('transport-http: requireApiKey needs at least one key in apiKeys');
    }
    const max = options.maxTrackedClients ?? 100_000;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new TypeError(`transport-http: maxTrackedClients must be a positive integer, got ${String(max)}`);
    }
    this.trustProxy = options.trustProxy === true;
    this.open = limiter(options.rateLimit, 'rateLimit', max);
    this.keyed = limiter(options.keyRateLimit, 'keyRateLimit', max);
    this.rest = limiter(options.explorerRateLimit, 'explorerRateLimit', max);
    this.texts = {
      open: `${describe(options.rateLimit)} per client address (rateLimit)`,
      keyed: `${describe(options.keyRateLimit)} per API key (keyRateLimit)`,
      rest: `${describe(options.explorerRateLimit)} per client address (explorerRateLimit)`,
    };
  }

  /** Whether keyed endpoints exist. */
  get hasKeys(): boolean {
    return this.keys !== undefined;
  }

  /**
   * For a path under `/api/v1/`: the key's index, or -1 for an unknown key. Undefined when the
   * path is not a keyed endpoint (no keys configured, another prefix, more than one segment).
   */
  keyOf(pathname: string): number | undefined {
    if (this.keys === undefined || !pathname.startsWith(API_KEY_PREFIX)) return undefined;
    let end = pathname.length;
    if (end > API_KEY_PREFIX.length && pathname.charCodeAt(end - 1) === 47 /* / */) end--;
    const segment = pathname.slice(API_KEY_PREFIX.length, end);
    if (segment === '' || segment.includes('/')) return undefined;
    return this.keys.indexOf(segment);
  }

  /**
   * Admits `n` JSON-RPC requests (a batch counts its items): `key` is the keyed endpoint's
   * index, -1 for an unknown key, undefined on the open endpoint. `n = 0` checks the key and
   * whether the client has a token left, taking none (before the body is read).
   */
  admitRpc(head: RequestHead, key: number | undefined, n: number): AccessRefusal | undefined {
    if (key === -1) return UNKNOWN_KEY;
    if (key === undefined) {
      if (this.requireApiKey) return KEY_REQUIRED;
      const open = this.open;
      if (open === undefined) return undefined;
      const client = clientAddress(head, this.trustProxy);
      return this.refusal(n === 0 ? open.peek(client) : open.take(client, n), this.texts.open);
    }
    const keyed = this.keyed;
    if (keyed === undefined) return undefined;
    return this.refusal(n === 0 ? keyed.peek(key) : keyed.take(key, n), this.texts.keyed);
  }

  /** Admits one REST request (the explorer's own limit). */
  admitRest(head: RequestHead): AccessRefusal | undefined {
    if (this.rest === undefined) return undefined;
    return this.refusal(this.rest.take(clientAddress(head, this.trustProxy), 1), this.texts.rest);
  }

  /**
   * Decides on a WebSocket upgrade: undefined when the path is neither `openPath` nor a keyed
   * endpoint (not ours), a refusal (unknown key, key required, rate limited: the upgrade counts
   * as a request), or the gate that charges the connection's requests.
   */
  admitUpgrade(head: RequestHead, pathname: string, openPath: string): AccessGate | AccessRefusal | undefined {
    const key = this.keyOf(pathname);
    if (key === undefined && pathname !== openPath) return undefined;
    const refused = this.admitRpc(head, key, 1);
    if (refused !== undefined) return refused;
    if (key === undefined) {
      const open = this.open;
      if (open === undefined) return ALLOW_ALL;
      const client = clientAddress(head, this.trustProxy);
      const text = this.texts.open;
      return { kind: 'gate', charge: (n) => this.refusal(open.take(client, n), text) };
    }
    const keyed = this.keyed;
    if (keyed === undefined) return ALLOW_ALL;
    const text = this.texts.keyed;
    return { kind: 'gate', charge: (n) => this.refusal(keyed.take(key, n), text) };
  }

  /** Buckets currently held over all limits (for tests and operators). */
  get trackedClients(): number {
    return (this.open?.size ?? 0) + (this.keyed?.size ?? 0) + (this.rest?.size ?? 0);
  }

  private refusal(wait: number, limit: string): AccessRefusal | undefined {
    if (wait === 0) return undefined;
    return {
      status: 429,
      code: RATE_LIMITED_CODE,
      message: `rate limit exceeded: ${limit}; retry after ${wait} s`,
      retryAfter: wait,
    };
  }
}

/** Builds the access policy a node's HTTP handler and WebSocket endpoint share. */
export function createAccessPolicy(options?: AccessOptions): AccessPolicy {
  return new AccessPolicy(options);
}
