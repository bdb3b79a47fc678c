import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, equalsBytes } from '@ethereumjs/util';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import type { Logger, ResolvedOptions } from '../kernel/options.js';
import { SUBLEVELS } from '../storage/keys.js';
import type { StoragePort } from '../storage/StoragePort.js';
import { fromData, toQuantity } from '../util/hex.js';
import type { ResolvedForkOptions } from './forkOptions.js';
import { ForkHistory, type RpcBlock } from './ForkHistory.js';
import { ForkState } from './ForkState.js';
import {
  DEFAULT_BACKOFF,
  DEFAULT_DISK_CACHE_ENTRIES,
  DEFAULT_MEMORY_CACHE_ENTRIES,
  type ForkCache,
  ForkStateSource,
  UpstreamClient,
  diskForkCache,
  levelForkCache,
  memoryForkCache,
  probeUpstream,
} from './upstream/index.js';

/** Everything a forked chain holds of its upstream: where, which block, and the ways to read it. */
export interface ForkContext {
  options: ResolvedForkOptions;
  client: UpstreamClient;
  /** The upstream's chain id (the node's own may differ when given, or after a re-fork). */
  upstreamChainId: bigint;
  /** The fork block N: the local chain's first block. */
  number: bigint;
  hash: Uint8Array;
  /** Block N as the upstream answered eth_getBlockByNumber(N, false). */
  block: RpcBlock;
  source: ForkStateSource;
  state: ForkState;
  history: ForkHistory;
  /** Where the upstream answers are kept: `level` (the chain's database), `disk` (a folder) or `memory`. */
  cacheKind: 'level' | 'disk' | 'memory';
  /** The first retry's wait in ms (later ones double it): anvil_nodeInfo's forkRetryBackoff. */
  retryBackoffMs: number;
  close(): Promise<void>;
}

/** meta key of the fork record: RLP [upstream chain id, N, hash of N]. */
export const FORK_META = new TextEncoder().encode('fork');
const VIEW = { keyEncoding: 'view', valueEncoding: 'view' } as const;

export interface ForkRecord {
  upstreamChainId: bigint;
  number: bigint;
  hash: Uint8Array;
}

export function encodeForkRecord(r: ForkRecord): Uint8Array {
  return RLP.encode([bigIntToUnpaddedBytes(r.upstreamChainId), bigIntToUnpaddedBytes(r.number), r.hash]);
}

/** The fork a database was made for, if it holds a forked chain. */
export async function readForkRecord(storage: StoragePort): Promise<ForkRecord | undefined> {
  const meta = storage.db.sublevel<Uint8Array, Uint8Array>(SUBLEVELS.meta, VIEW);
  const v = await meta.get(FORK_META);
  if (v === undefined) return undefined;
  const [id, n, hash] = RLP.decode(v) as Uint8Array[];
  return { upstreamChainId: bytesToBigInt(id), number: bytesToBigInt(n), hash };
}

/**
 * Connects to the upstream and settles the fork block: the one the options name, else the one
 * the database was forked at (a restart), else the upstream's latest. Fails with a message naming
 * the upstream when it cannot answer or has no such block. Makes three upstream calls (chain id,
 * latest block, block N's header), none for state.
 */
export async function openFork(
  options: ResolvedForkOptions,
  storage: StoragePort,
  logger: Logger,
  /** `fresh`: for a new chain in place of the stored one (hardhat_reset), whatever fork the database holds. */
  opts: { fresh?: boolean } = {},
): Promise<ForkContext> {
  const client = new UpstreamClient({
    url: options.url,
    headers: options.headers,
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    logger,
  });
  let cache: ForkCache | undefined;
  try {
    const stored = opts.fresh ? undefined : await readForkRecord(storage);
    const probe = await probeUpstream(client);
    if (stored && stored.upstreamChainId !== probe.chainId)
      throw new AshlarError(
        ErrorCodes.GENESIS_MISMATCH,
        `storage at ${storage.location} holds a fork of chain ${stored.upstreamChainId}, but ${client.displayUrl} serves chain ${probe.chainId}; use another --db path`,
      );
    if (stored && options.blockNumber !== undefined && options.blockNumber !== stored.number)
      throw new AshlarError(
        ErrorCodes.GENESIS_MISMATCH,
        `storage at ${storage.location} holds a fork at block ${stored.number}, not ${options.blockNumber}; use another --db path or the same fork block`,
      );
    const number = options.blockNumber ?? stored?.number ?? probe.latest;
    if (number > probe.latest)
      throw new AshlarError(
        ErrorCodes.OPTIONS,
        `fork block ${number} is ahead of ${client.displayUrl}'s latest block ${probe.latest}`,
      );
    const block = await client.request<RpcBlock | null>('eth_getBlockByNumber', [toQuantity(number), false]);
    if (!block || typeof block.hash !== 'string')
      throw new AshlarError(ErrorCodes.FORK_UPSTREAM, `${client.displayUrl} has no block ${number}`);
    const hash = fromData(block.hash);
    if (stored && !equalsBytes(stored.hash, hash))
      throw new AshlarError(
        ErrorCodes.GENESIS_MISMATCH,
        `storage at ${storage.location} holds a fork of block ${number} with another hash than ${client.displayUrl}'s (${block.hash}): the upstream reorganised or is another chain; use another --db path`,
      );
    let cacheKind: ForkContext['cacheKind'];
    const bounds = {
      maxEntries: options.cacheMaxEntries ?? DEFAULT_DISK_CACHE_ENTRIES,
      chainId: probe.chainId,
      blockNumber: number,
      blockHash: hash,
    };
    if (!options.cache) {
      cache = memoryForkCache({ maxEntries: options.cacheMaxEntries ?? DEFAULT_MEMORY_CACHE_ENTRIES });
      cacheKind = 'memory';
    } else if (storage.kind !== 'memory') {
      cache = levelForkCache(storage.db.sublevel(SUBLEVELS.forkCache, VIEW), bounds);
      cacheKind = 'level';
    } else {
      cache = await diskForkCache({
        ...bounds,
        ...(options.cacheDir !== undefined ? { dir: options.cacheDir } : {}),
        logger,
      });
      cacheKind = 'disk';
    }
    const source = new ForkStateSource(client, number, cache);
    const openCache = cache;
    return {
      options,
      client,
      upstreamChainId: probe.chainId,
      number,
      hash,
      block,
      source,
      state: new ForkState(source),
      history: new ForkHistory(client, number),
      cacheKind,
      retryBackoffMs: DEFAULT_BACKOFF.baseMs,
      async close() {
        await client.close();
        await openCache.close();
      },
    };
  } catch (e) {
    await client.close().catch(() => undefined);
    await cache?.close().catch(() => undefined);
    throw e;
  }
}

/**
 * The fork a kernel's options ask for, opened (undefined without one). Without a given chain id
 * or block gas limit, the node takes the upstream's chain id and block N's gas limit (written
 * into `resolved`, which every service reads).
 */
export async function openForkOf(
  resolved: ResolvedOptions,
  storage: StoragePort,
  logger: Logger,
): Promise<ForkContext | undefined> {
  if (!resolved.fork) return undefined;
  const fork = await openFork(resolved.fork, storage, logger);
  if (resolved.fork.chainIdFromUpstream) resolved.chain.chainId = fork.upstreamChainId;
  const gasLimit = typeof fork.block.gasLimit === 'string' ? BigInt(fork.block.gasLimit) : 0n;
  if (resolved.fork.gasLimitFromUpstream && gasLimit >= 21_000n) resolved.chain.gasLimit = gasLimit;
  return fork;
}
