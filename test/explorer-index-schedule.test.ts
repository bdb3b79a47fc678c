// When the explorer index does its work (issue #14): never for a block as it is mined, in a pause
// of the node (no block and no request for `idleMs`), at the first read, or, on a node that never
// pauses, once more than `maxPending` blocks wait; what it writes is the same whenever it runs.
import { indexOf, memoryStorage } from '@ashlar/core';
import { describe, expect, it } from 'vitest';
import { api, explorerKernel } from './helpers/explorerChain.js';
import { dumpIndex } from './helpers/indexDump.js';

type ExplorerKernel = Awaited<ReturnType<typeof explorerKernel>>;

const ACCOUNT0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/**
 * `n` automined value transfers, one request after another (no pause between them); with `at`,
 * block timestamps from there on, so that two chains get the same blocks.
 */
async function transfers(k: ExplorerKernel, n: number, at?: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    if (at !== undefined) await k.request({ method: 'evm_setNextBlockTimestamp', params: [at + i] });
    await k.request({
      method: 'eth_sendTransaction',
      params: [{ from: ACCOUNT0, to: `0x${'ab'.repeat(18)}${i.toString(16).padStart(4, '0')}`, value: '0x1' }],
    });
  }
}

function indexOfKernel(k: ExplorerKernel) {
  const index = indexOf(k);
  if (!index) throw new Error('no index');
  return index;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done()` or `ms` passed; answers `done()`. */
async function eventually(done: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await sleep(10);
  return done();
}

describe('explorer index schedule', () => {
  it('indexes nothing during a burst, then catches up in the pause after it without being read', async () => {
    const k = await explorerKernel({ storage: memoryStorage() });
    try {
      const index = indexOfKernel(k);
      await transfers(k, 40);
      // Nothing indexed yet: the requests came one after another.
      expect(index.lag).toBe(40);
      expect(await eventually(() => index.lag === 0, 5_000)).toBe(true);
      const stats = (await api(k, '/api/v2/stats')).body;
      expect(stats.total_blocks).toBe('41');
    } finally {
      await k.close();
    }
  });

  it('waits while requests keep coming, and answers a read with every block so far', async () => {
    // A pause of 1 s: a loaded CI machine stalling this process for longer is not expected.
    const k = await explorerKernel({ storage: memoryStorage(), explorer: { idleMs: 1_000 } });
    try {
      const index = indexOfKernel(k);
      await transfers(k, 10);
      // Requests every ~50 ms for ~3 s, three times the pause it waits for without a block:
      // never a pause without a request, so nothing is indexed.
      for (let i = 0; i < 60; i++) {
        await k.request({ method: 'eth_blockNumber' });
        await sleep(50);
      }
      expect(index.lag).toBe(10);
      // A read brings the index to the head first (read-your-writes).
      const txs = (await api(k, `/api/v2/addresses/${ACCOUNT0}/transactions`)).body;
      expect(txs.items).toHaveLength(10);
      expect(index.lag).toBe(0);
    } finally {
      await k.close();
    }
  });

  it('keeps at most maxPending blocks and a batch waiting on a node that never pauses', async () => {
    const k = await explorerKernel({ storage: memoryStorage(), explorer: { maxPending: 100 } });
    try {
      const index = indexOfKernel(k);
      let most = 0;
      // evm_mine in-process, one after another: no timer or immediate runs between them.
      for (let i = 0; i < 300; i++) {
        await k.request({ method: 'evm_mine' });
        most = Math.max(most, index.lag);
      }
      expect(most).toBeGreaterThan(100);
      expect(most).toBeLessThanOrEqual(100 + 64 + 1);
      expect(index.lag).toBeLessThanOrEqual(100 + 64 + 1);
    } finally {
      await k.close();
    }
  });

  it('writes the same index whether it caught up in pauses, at a read or past its bound', async () => {
    const run = async (explorer: { idleMs?: number; maxPending?: number }, pauses: boolean) => {
      // One genesis time and block times for all three: the same blocks, hash for hash.
      const k = await explorerKernel({ storage: memoryStorage(), explorer, genesisTimestamp: 1_899_999_999 });
      try {
        for (let round = 0; round < 3; round++) {
          await transfers(k, 30, 1_900_000_000 + round * 30);
          if (pauses) await eventually(() => indexOfKernel(k).lag === 0, 5_000);
        }
        return await dumpIndex(indexOfKernel(k));
      } finally {
        await k.close();
      }
    };
    const inPauses = await run({ idleMs: 1 }, true);
    const atRead = await run({ idleMs: 60_000 }, false);
    const pastBound = await run({ idleMs: 60_000, maxPending: 10 }, false);
    expect(atRead).toEqual(inPauses);
    expect(pastBound).toEqual(inPauses);
  });

  it('refuses a bad idleMs or maxPending by name, and the kernel does not start', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ idleMs: -1 }, /idleMs must be a number ≥ 0, got -1/],
      [{ idleMs: Number.NaN }, /idleMs must be a number ≥ 0, got NaN/],
      [{ idleMs: '50' }, /idleMs must be a number ≥ 0, got 50/],
      [{ maxPending: 1.5 }, /maxPending must be an integer ≥ 0, got 1.5/],
      [{ maxPending: Number.POSITIVE_INFINITY }, /maxPending must be an integer ≥ 0, got Infinity/],
    ];
    for (const [explorer, message] of bad) {
      await expect(explorerKernel({ storage: memoryStorage(), explorer: explorer as never })).rejects.toThrow(message);
    }
    // 0 is valid for both: catch up at the first look, and past any waiting block.
    const k = await explorerKernel({ storage: memoryStorage(), explorer: { idleMs: 0, maxPending: 0 } });
    try {
      await transfers(k, 3);
      expect((await api(k, '/api/v2/stats')).body.total_blocks).toBe('4');
    } finally {
      await k.close();
    }
  });
});
