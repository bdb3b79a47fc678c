/**
 * The explorer index catches up with the head once the node is idle: no block made and no
 * JSON-RPC request taken for 50 ms (IndexService). A client that keeps reading does not have the
 * catch-up run between its calls; an explorer query still sees every block (read-your-writes).
 * Timers and the clock are faked, so "idle" is exact here.
 */
import { type Kernel, indexOf } from '@ashlar/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiOk, explorerKernel } from './helpers/explorerChain.js';

let kernel: Kernel | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await kernel?.close();
  kernel = undefined;
});

/** Lets the index's catch-up (chain lock, immediates between batches) run to its end. */
async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise<void>((r) => setImmediate(r));
}

describe('explorer index catch-up', () => {
  it('waits while requests keep coming, and catches up once they stop', async () => {
    kernel = await explorerKernel();
    const k = kernel;
    const index = indexOf(k);
    if (index === undefined) throw new Error('no index');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    for (let i = 0; i < 3; i++) await k.request({ method: 'evm_mine' });
    expect(index.lag).toBe(3);
    // A client reading every 20 ms for a second: never 50 ms without a request.
    for (let t = 0; t < 50; t++) {
      await k.request({ method: 'eth_blockNumber' });
      await vi.advanceTimersByTimeAsync(20);
      await settle();
    }
    expect(index.lag).toBe(3);
    // Quiet: the next timer finds no new request and the index catches up.
    await vi.advanceTimersByTimeAsync(120);
    await settle();
    expect(index.lag).toBe(0);
  });

  it('catches up once no block is made for 50 ms when nobody asks anything', async () => {
    kernel = await explorerKernel();
    const k = kernel;
    const index = indexOf(k);
    if (index === undefined) throw new Error('no index');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    await k.request({ method: 'evm_mine' });
    expect(index.lag).toBe(1);
    await vi.advanceTimersByTimeAsync(30);
    await settle();
    expect(index.lag).toBe(1);
    await vi.advanceTimersByTimeAsync(40);
    await settle();
    expect(index.lag).toBe(0);
  });

  it('answers an explorer query with every block while clients keep it busy', async () => {
    kernel = await explorerKernel();
    const k = kernel;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    for (let i = 0; i < 4; i++) {
      await k.request({ method: 'evm_mine' });
      await k.request({ method: 'eth_blockNumber' });
      await vi.advanceTimersByTimeAsync(20);
    }
    const stats = await apiOk(k, '/api/v2/stats');
    expect(stats.total_blocks).toBe(String(k.chain.head.number + 1n));
    expect(indexOf(k)?.lag).toBe(0);
  });
});
