// The upstream side of a fork: JSON-RPC to the forked chain (batching, bounded concurrency,
// retries), its state at the fork block, and the caches in front of it.
export { UpstreamClient, type UpstreamOptions, type UpstreamStats } from './UpstreamClient.js';
export { ForkStateSource, type UpstreamAccount } from './ForkStateSource.js';
export {
  DEFAULT_DISK_CACHE_ENTRIES,
  DEFAULT_MEMORY_CACHE_ENTRIES,
  type ForkCache,
  type ForkCacheBounds,
  type LevelForkCacheOptions,
  levelForkCache,
  memoryForkCache,
} from './ForkCache.js';
export { diskForkCache, forkCacheDir, type DiskForkCacheOptions } from './diskForkCache.js';
export { probeUpstream } from './probeUpstream.js';
export { redactUrl } from './redactUrl.js';
export { describeCall, type UpstreamFailure, type UpstreamRpcError } from './upstreamError.js';
export { type BackoffOptions, DEFAULT_BACKOFF } from './retryPolicy.js';
