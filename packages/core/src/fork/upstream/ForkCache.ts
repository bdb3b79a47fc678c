// Where upstream answers for state at the fork block are kept. A cache holds the answers of ONE
// chain at ONE block: the key a ForkStateSource gives is (kind, address[, slot]) and nothing else,
// so the cache itself is chosen by chain id and block (a folder per chain and block on disk, a key
// prefix in a shared database). Only answers go in: a failed request throws before any put.
import type { AbstractLevel } from 'abstract-level';
import { AshlarError } from '../../errors/AshlarError.js';
import { ErrorCodes } from '../../errors/codes.js';
import { Lru } from '../../util/Lru.js';
import { concat, equalBytes, readU64, toData, u64 } from '../../util/hex.js';

export interface ForkCache {
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  put(key: Uint8Array, value: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Suggested bounds: a LevelDB entry is about 60–100 bytes before compression, so the disk cache
 * stays near 100 MB; in memory an entry costs a few hundred bytes of JS objects. */
export const DEFAULT_DISK_CACHE_ENTRIES = 1_000_000;
export const DEFAULT_MEMORY_CACHE_ENTRIES = 100_000;

export interface ForkCacheBounds {
  /** Entries kept at most (an account, or one storage slot, is one entry). */
  maxEntries: number;
}

// biome-ignore lint/suspicious/noExplicitAny: any abstract-level database or sublevel, whatever its encodings
type AnyLevel = AbstractLevel<any, any, any>;

const VIEW = { keyEncoding: 'view', valueEncoding: 'view' } as const;
/** Below the chain-and-block prefix: 'd' + key → value, 'h' → hash of the fork block, 'n' → entry count (u64). */
const DATA = 0x64;
const HASH = 0x68;
const COUNT = 0x6e;

function checkBounds(opts: ForkCacheBounds): number {
  if (!Number.isSafeInteger(opts.maxEntries) || opts.maxEntries < 1) {
    throw new AshlarError(
      ErrorCodes.OPTIONS,
      `fork cache maxEntries must be a positive integer, got ${opts.maxEntries}`,
    );
  }
  return opts.maxEntries;
}

/** In memory only (`--no-fork-cache`): a bounded LRU, gone when the node stops. */
export function memoryForkCache(opts: ForkCacheBounds): ForkCache {
  const lru = new Lru<string, Uint8Array>(checkBounds(opts));
  return {
    async get(key) {
      return lru.get(toData(key));
    },
    async put(key, value) {
      lru.set(toData(key), value);
    },
    async close() {
      lru.clear();
    },
  };
}

export interface LevelForkCacheOptions extends ForkCacheBounds {
  /** The fork's chain id and block: every key is prefixed with them, so that one database can hold
   * the caches of several forks (a re-fork at another block, or of another chain) without mixing. */
  chainId: bigint;
  blockNumber: bigint;
  /** The fork block's hash, when known: a cache kept for another block of that number (the upstream
   * reorganised since, a fork of a recent block) is emptied instead of served. */
  blockHash?: Uint8Array;
}

/**
 * The cache in a level database: with `--db DIR`, a sublevel of the chain's own database
 * (SUBLEVELS.forkCache). Bounded by a count: the number of entries is kept beside them and, when a
 * put would pass maxEntries, about a tenth of the entries, from a random point of the key space, are
 * deleted (keys are addresses and slots, so that is a random sample). The count may over-count an
 * entry written twice (two nodes on one database): it then evicts a little early, never late.
 */
export function levelForkCache(db: AnyLevel, opts: LevelForkCacheOptions): ForkCache {
  const maxEntries = checkBounds(opts);
  if (opts.chainId < 0n || opts.chainId >= 2n ** 64n || opts.blockNumber < 0n || opts.blockNumber >= 2n ** 64n) {
    throw new AshlarError(ErrorCodes.OPTIONS, 'fork cache: chain id and block number must fit in 64 bits');
  }
  const prefix = concat(u64(opts.chainId), u64(opts.blockNumber));
  const countKey = concat(prefix, Uint8Array.of(COUNT));
  const dataStart = concat(prefix, Uint8Array.of(DATA));
  const dataEnd = concat(prefix, Uint8Array.of(DATA + 1));
  const hashKey = concat(prefix, Uint8Array.of(HASH));
  let count: bigint | undefined;

  /** Empties the cache when it was filled for another block hash; then records this one. */
  const checkHash = async (hash: Uint8Array): Promise<void> => {
    const stored = (await db.get(hashKey, VIEW)) as Uint8Array | undefined;
    if (stored !== undefined && equalBytes(stored, hash)) return;
    if (stored !== undefined) {
      await db.clear({ ...VIEW, gte: dataStart, lt: dataEnd });
      await db.put(countKey, u64(0n), VIEW);
      count = 0n;
    }
    await db.put(hashKey, hash, VIEW);
  };
  const ready = opts.blockHash === undefined ? Promise.resolve() : checkHash(opts.blockHash);
  // Its failure surfaces in every get and put (as a cache miss, or a write that failed), not here.
  ready.catch(() => undefined);
  /** Puts in order, so that count updates never interleave. */
  let writes: Promise<void> = ready;

  const readCount = async (): Promise<bigint> => {
    if (count === undefined) {
      const stored = (await db.get(countKey, VIEW)) as Uint8Array | undefined;
      count = stored === undefined || stored.length !== 8 ? 0n : readU64(stored);
    }
    return count;
  };

  /** A random key between the first and the last entry (their first byte is a kind: accounts, slots…). */
  const randomStart = async (): Promise<Uint8Array> => {
    const [first] = (await db.keys({ ...VIEW, gte: dataStart, lt: dataEnd, limit: 1 }).all()) as Uint8Array[];
    const [last] = (await db
      .keys({ ...VIEW, gte: dataStart, lt: dataEnd, limit: 1, reverse: true })
      .all()) as Uint8Array[];
    const low = first?.[dataStart.length] ?? 0;
    const high = last?.[dataStart.length] ?? 255;
    const random = crypto.getRandomValues(new Uint8Array(33));
    random[0] = low + ((random[0] as number) % (high - low + 1));
    return concat(dataStart, random);
  };

  const evict = async (): Promise<void> => {
    const target = BigInt(Math.max(1, Math.floor(maxEntries / 10)));
    const start = await randomStart();
    const keys: Uint8Array[] = (await db
      .keys({ ...VIEW, gte: start, lt: dataEnd, limit: Number(target) })
      .all()) as Uint8Array[];
    if (BigInt(keys.length) < target) {
      // Wrap around to the start of the data range.
      const more = (await db
        .keys({ ...VIEW, gte: dataStart, lt: start, limit: Number(target) - keys.length })
        .all()) as Uint8Array[];
      keys.push(...more);
    }
    const left = (await readCount()) - BigInt(keys.length);
    count = left < 0n ? 0n : left;
    await db.batch(
      [
        ...keys.map((key) => ({ type: 'del' as const, key })),
        { type: 'put' as const, key: countKey, value: u64(count) },
      ],
      VIEW,
    );
  };

  return {
    async get(key) {
      await ready;
      const value = (await db.get(concat(dataStart, key), VIEW)) as Uint8Array | undefined;
      // A plain view even when the store hands out Buffers (memory-level, classic-level).
      return value === undefined ? undefined : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    },
    put(key, value) {
      const write = writes.then(async () => {
        if ((await readCount()) >= BigInt(maxEntries)) await evict();
        count = (await readCount()) + 1n;
        await db.batch(
          [
            { type: 'put', key: concat(dataStart, key), value },
            { type: 'put', key: countKey, value: u64(count) },
          ],
          VIEW,
        );
      });
      writes = write.catch(() => undefined);
      return write;
    },
    async close() {
      await writes;
    },
  };
}
