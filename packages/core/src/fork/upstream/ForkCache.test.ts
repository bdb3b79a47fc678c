import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import { levelForkCache, memoryForkCache } from './ForkCache.js';

const key = (i: number): Uint8Array =>
  Uint8Array.of(0x61, ...new Uint8Array(16), (i >> 16) & 255, (i >> 8) & 255, i & 255);
const value = (i: number): Uint8Array => Uint8Array.of(i & 255, 7);

function memoryDb() {
  return new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' });
}

async function entriesOf(db: ReturnType<typeof memoryDb>): Promise<number> {
  return (await db.keys().all()).length;
}

describe('memoryForkCache', () => {
  it('keeps at most maxEntries, forgetting the least recently used', async () => {
    const cache = memoryForkCache({ maxEntries: 2 });
    await cache.put(key(1), value(1));
    await cache.put(key(2), value(2));
    expect(await cache.get(key(1))).toEqual(value(1)); // 1 is now the most recent
    await cache.put(key(3), value(3));
    expect(await cache.get(key(2))).toBeUndefined();
    expect(await cache.get(key(1))).toEqual(value(1));
    expect(await cache.get(key(3))).toEqual(value(3));
  });
  it('rejects a bound that is not a positive integer', () => {
    expect(() => memoryForkCache({ maxEntries: 0 })).toThrow(/maxEntries/);
  });
});

describe('levelForkCache', () => {
  it('stores and reads back under a chain-and-block prefix; other forks in the same database do not see it', async () => {
    const db = memoryDb();
    const a = levelForkCache(db, { maxEntries: 100, chainId: 1n, blockNumber: 100n });
    const b = levelForkCache(db, { maxEntries: 100, chainId: 1n, blockNumber: 101n });
    const c = levelForkCache(db, { maxEntries: 100, chainId: 10n, blockNumber: 100n });
    await a.put(key(1), value(1));
    expect(await a.get(key(1))).toEqual(value(1));
    expect(await b.get(key(1))).toBeUndefined();
    expect(await c.get(key(1))).toBeUndefined();
    // reopened on the same database: the entry is there
    const again = levelForkCache(db, { maxEntries: 100, chainId: 1n, blockNumber: 100n });
    expect(await again.get(key(1))).toEqual(value(1));
    await db.close();
  });

  it('stays within maxEntries, evicting when full', async () => {
    const db = memoryDb();
    const cache = levelForkCache(db, { maxEntries: 20, chainId: 1n, blockNumber: 5n });
    await Promise.all(Array.from({ length: 100 }, (_, i) => cache.put(key(i), value(i))));
    await cache.close();
    // 20 data entries at most, plus the count entry
    const stored = await entriesOf(db);
    expect(stored).toBeGreaterThan(10);
    expect(stored).toBeLessThanOrEqual(21);
    // the newest entry survived (evictions happen before a put)
    expect(await cache.get(key(99))).toEqual(value(99));
    // the count survives a reopen: the bound holds across runs
    const reopened = levelForkCache(db, { maxEntries: 20, chainId: 1n, blockNumber: 5n });
    for (let i = 100; i < 150; i++) await reopened.put(key(i), value(i));
    expect(await entriesOf(db)).toBeLessThanOrEqual(21);
    await db.close();
  });

  it('works in a sublevel with its own encodings', async () => {
    const db = memoryDb();
    const sub = db.sublevel<Uint8Array, Uint8Array>('f', { keyEncoding: 'view', valueEncoding: 'view' });
    const cache = levelForkCache(sub, { maxEntries: 10, chainId: 31337n, blockNumber: 0n });
    await cache.put(key(3), value(3));
    expect(await cache.get(key(3))).toEqual(value(3));
    await db.close();
  });

  it('is emptied when opened for another hash of its block (a reorganised upstream), kept for the same', async () => {
    const db = memoryDb();
    const hashA = new Uint8Array(32).fill(0xaa);
    const hashB = new Uint8Array(32).fill(0xbb);
    const first = levelForkCache(db, { maxEntries: 10, chainId: 1n, blockNumber: 7n, blockHash: hashA });
    await first.put(key(1), value(1));
    const same = levelForkCache(db, { maxEntries: 10, chainId: 1n, blockNumber: 7n, blockHash: hashA });
    expect(await same.get(key(1))).toEqual(value(1));
    const other = levelForkCache(db, { maxEntries: 10, chainId: 1n, blockNumber: 7n, blockHash: hashB });
    expect(await other.get(key(1))).toBeUndefined();
    // and the count restarted: ten new entries fit without eviction
    for (let i = 100; i < 110; i++) await other.put(key(i), value(i));
    for (let i = 100; i < 110; i++) expect(await other.get(key(i))).toEqual(value(i));
    await db.close();
  });

  it('rejects a chain id past 64 bits', () => {
    expect(() => levelForkCache(memoryDb(), { maxEntries: 1, chainId: 2n ** 64n, blockNumber: 0n })).toThrow(/64 bits/);
  });
});
