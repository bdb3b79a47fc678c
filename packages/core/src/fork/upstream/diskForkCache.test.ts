import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskForkCache, forkCacheDir } from './diskForkCache.js';

const tmp = mkdtempSync(join(tmpdir(), 'ashlar-fork-cache-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('forkCacheDir', () => {
  it('is $XDG_CACHE_HOME/ashlar/fork/<chainId>/<block>', () => {
    expect(forkCacheDir(1n, 19_000_000n, { XDG_CACHE_HOME: '/var/cache/me' })).toBe(
      '/var/cache/me/ashlar/fork/1/19000000',
    );
  });
  it('falls back to ~/.cache when XDG_CACHE_HOME is unset, empty or relative (the XDG spec ignores relative paths)', () => {
    const expected = join(homedir(), '.cache', 'ashlar', 'fork', '10', '5');
    expect(forkCacheDir(10n, 5n, {})).toBe(expected);
    expect(forkCacheDir(10n, 5n, { XDG_CACHE_HOME: '' })).toBe(expected);
    expect(forkCacheDir(10n, 5n, { XDG_CACHE_HOME: 'cache' })).toBe(expected);
  });
});

describe('diskForkCache', () => {
  const key = Uint8Array.of(0x61, 1, 2, 3);
  it('keeps entries across a reopen of its folder', async () => {
    const dir = join(tmp, 'reopen');
    const first = await diskForkCache({ chainId: 1n, blockNumber: 2n, dir, maxEntries: 10 });
    await first.put(key, Uint8Array.of(9));
    await first.close();
    const second = await diskForkCache({ chainId: 1n, blockNumber: 2n, dir, maxEntries: 10 });
    expect(await second.get(key)).toEqual(Uint8Array.of(9));
    await second.close();
  });

  it('falls back to memory, with one warning, when another node holds the folder', async () => {
    const dir = join(tmp, 'locked');
    const holder = await diskForkCache({ chainId: 1n, blockNumber: 2n, dir, maxEntries: 10 });
    const warnings: string[] = [];
    const other = await diskForkCache({
      chainId: 1n,
      blockNumber: 2n,
      dir,
      maxEntries: 10,
      logger: { warn: (m) => warnings.push(m) },
    });
    await other.put(key, Uint8Array.of(1));
    expect(await other.get(key)).toEqual(Uint8Array.of(1));
    expect(await holder.get(key)).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/in use by another process: caching in memory/)]);
    await other.close();
    await holder.close();
  });

  it('falls back to memory, with one warning, when the folder cannot be made', async () => {
    const warnings: string[] = [];
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'not a folder');
    const cache = await diskForkCache({
      chainId: 1n,
      blockNumber: 2n,
      dir: join(file, 'cache'),
      maxEntries: 10,
      logger: { warn: (m) => warnings.push(m) },
    });
    await cache.put(key, Uint8Array.of(5));
    expect(await cache.get(key)).toEqual(Uint8Array.of(5));
    expect(warnings).toEqual([expect.stringMatching(/cannot be opened \(.*\): caching in memory for this run/)]);
    await cache.close();
  });
});
