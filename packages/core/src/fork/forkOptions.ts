import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';

/** `createKernel({ fork })` / `createNode({ fork })`: run on a copy of another chain (docs/forking.md). */
export interface ForkOptions {
  /** JSON-RPC URL (http or https) of the chain to fork. */
  url: string;
  /** The fork block N (default: the upstream's latest block when the node starts). */
  blockNumber?: bigint | number;
  /** HTTP headers sent with every upstream request (API keys). */
  headers?: Record<string, string>;
  /** Retries of a failed upstream request (default 5). */
  retries?: number;
  /** Upstream HTTP requests in flight at most (default 8). */
  concurrency?: number;
  /**
   * Keep the upstream's answers for state at N on disk (default true): in the chain's own
   * database with LevelDB storage, else under `$XDG_CACHE_HOME/ashlar/fork/<chainId>/<N>`.
   * False keeps them in memory only, for this run.
   */
  cache?: boolean;
  /** Most entries (an account, or a storage slot) the cache keeps (default 1,000,000 on disk, 100,000 in memory). */
  cacheMaxEntries?: number;
  /** Folder of the disk cache of an in-memory chain (default under `$XDG_CACHE_HOME`, see above). */
  cacheDir?: string;
}

export interface ResolvedForkOptions {
  url: string;
  blockNumber?: bigint;
  headers: Record<string, string>;
  retries?: number;
  concurrency?: number;
  cache: boolean;
  cacheMaxEntries?: number;
  cacheDir?: string;
  /** The chain id was not given: the node takes the upstream's. */
  chainIdFromUpstream: boolean;
  /** The block gas limit was not given: new blocks take block N's (as Anvil's fork does). */
  gasLimitFromUpstream: boolean;
}

function fail(message: string): never {
  throw new AshlarError(ErrorCodes.OPTIONS, message);
}

/** Checks the fork options, naming the one that is wrong. */
export function resolveForkOptions(f: ForkOptions, chainIdGiven: boolean, gasLimitGiven = true): ResolvedForkOptions {
  if (typeof f !== 'object' || f === null) fail('fork must be an object with a url');
  if (typeof f.url !== 'string' || !/^https?:\/\/./i.test(f.url))
    fail(`fork.url must be an http(s) URL, got ${JSON.stringify(f.url)}`);
  let blockNumber: bigint | undefined;
  if (f.blockNumber !== undefined) {
    if (typeof f.blockNumber === 'number' && !Number.isSafeInteger(f.blockNumber))
      fail(`fork.blockNumber must be a non-negative integer, got ${f.blockNumber}`);
    blockNumber = BigInt(f.blockNumber);
    if (blockNumber < 0n) fail(`fork.blockNumber must be a non-negative integer, got ${f.blockNumber}`);
  }
  const count = (name: 'retries' | 'concurrency', min: number) => {
    const v = f[name];
    if (v !== undefined && (!Number.isSafeInteger(v) || v < min))
      fail(`fork.${name} must be an integer of at least ${min}, got ${v}`);
    return v;
  };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(f.headers ?? {})) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) fail(`fork.headers: ${JSON.stringify(name)} is not a header name`);
    if (typeof value !== 'string' || /[\r\n]/.test(value))
      fail(`fork.headers: the value of ${name} must be one line of text`);
    headers[name] = value;
  }
  const cacheMaxEntries = f.cacheMaxEntries;
  if (cacheMaxEntries !== undefined && (!Number.isSafeInteger(cacheMaxEntries) || cacheMaxEntries < 1))
    fail(`fork.cacheMaxEntries must be a positive integer, got ${f.cacheMaxEntries}`);
  return {
    url: f.url,
    ...(blockNumber !== undefined ? { blockNumber } : {}),
    headers,
    retries: count('retries', 0),
    concurrency: count('concurrency', 1),
    cache: f.cache ?? true,
    ...(cacheMaxEntries !== undefined ? { cacheMaxEntries } : {}),
    ...(f.cacheDir !== undefined ? { cacheDir: f.cacheDir } : {}),
    chainIdFromUpstream: !chainIdGiven,
    gasLimitFromUpstream: !gasLimitGiven,
  };
}
