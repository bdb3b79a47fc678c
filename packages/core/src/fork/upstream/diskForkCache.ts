import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ForkCache, type ForkCacheBounds, levelForkCache, memoryForkCache } from './ForkCache.js';

export interface DiskForkCacheOptions extends ForkCacheBounds {
  chainId: bigint;
  blockNumber: bigint;
  /** The fork block's hash: a folder filled for another block of that number is emptied (levelForkCache). */
  blockHash?: Uint8Array;
  /** The database folder; default `$XDG_CACHE_HOME/ashlar/fork/<chainId>/<block>` (forkCacheDir). */
  dir?: string;
  /** Told when the folder cannot be used (another process holds it) and the cache falls back to memory. */
  logger?: { warn(m: string): void };
}

/** `$XDG_CACHE_HOME/ashlar/fork/<chainId>/<block>`, with `~/.cache` when XDG_CACHE_HOME is unset or relative. */
export function forkCacheDir(chainId: bigint, blockNumber: bigint, env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored.
  const base = xdg !== undefined && xdg !== '' && xdg.startsWith('/') ? xdg : join(homedir(), '.cache');
  return join(base, 'ashlar', 'fork', chainId.toString(), blockNumber.toString());
}

/**
 * The cache for `--memory` forks: a LevelDB (classic-level) folder per chain and block, so that the
 * next run forking the same block starts warm. Bounded like levelForkCache (an entry count, about a
 * tenth evicted when full). If the folder cannot be used (locked by another running node, not
 * writable), this warns and falls back to an in-memory cache rather than failing the fork.
 */
export async function diskForkCache(opts: DiskForkCacheOptions): Promise<ForkCache> {
  const dir = resolve(opts.dir ?? forkCacheDir(opts.chainId, opts.blockNumber));
  // Loaded here, not at the top: classic-level is a native addon, and only disk caches need it.
  const { ClassicLevel } = await import('classic-level');
  const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
  try {
    await mkdir(dir, { recursive: true });
    await db.open();
  } catch (e) {
    // A cache only saves requests: a folder that cannot be used (held by another node, not
    // writable, damaged) must not stop the fork.
    const why =
      (e as { cause?: { message?: string }; message?: string }).cause?.message ?? (e as Error).message ?? String(e);
    opts.logger?.warn(
      /lock/i.test(why)
        ? `fork cache ${dir} is in use by another process: caching in memory for this run`
        : `fork cache ${dir} cannot be opened (${why}): caching in memory for this run`,
    );
    await db.close().catch(() => undefined);
    return memoryForkCache(opts);
  }
  const cache = levelForkCache(db, opts);
  return {
    get: (key) => cache.get(key),
    put: (key, value) => cache.put(key, value),
    async close() {
      await cache.close();
      await db.close();
    },
  };
}
