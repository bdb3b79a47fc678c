// The explorer index against the chain it follows: every write rolled back with the head, and a
// rebuild from the stored blocks equal to what was indexed live.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Kernel,
  type Progress,
  type StoragePort,
  createKernel,
  definePlugin,
  indexOf,
  memoryStorage,
} from '@ashlar/core';
import { levelStorage } from '@ashlar/storage-level';
import { Interface } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { loadArtifact } from './helpers/contracts.js';
import {
  ChainDriver,
  type Hex,
  api,
  buildRichChain,
  explorerKernel,
  explorerPlugins,
} from './helpers/explorerChain.js';
import { dumpIndex, levelLikeMemoryStorage } from './helpers/indexDump.js';

/** Activity touching every part of the index: new token and holders, NFTs, an ERC-1155 batch, withdrawals, coins, internal transactions. */
let withdrawalIndex = 100;

/** Tracer.sol: a deployment whose constructor creates a contract, and a run with every kind of call frame. */
async function internalActivity(d: ChainDriver): Promise<void> {
  const { address } = await d.deploy('Tracer');
  const run = new Interface(loadArtifact('Tracer').abi).encodeFunctionData('run', [
    d.accounts[5],
    `0x${'11'.repeat(32)}`,
  ]);
  await d.send({ to: address, value: 3n, data: run as Hex, gas: 1_000_000n });
}

async function moreActivity(d: ChainDriver, rc: { token: Hex; nft: Hex; multi: Hex }): Promise<void> {
  const [a, b, c, , , f] = d.accounts;
  const { address: token2 } = await d.deploy('Token', ['Second', 'SEC', 1000n]);
  await d.call('Token', token2, 'transfer', [f, 10n]);
  await d.call('Token', rc.token, 'transfer', [f, 7n]);
  await d.call('Collectible', rc.nft, 'mint', [f, 9n]);
  await d.call('Collectible', rc.nft, 'transferFrom', [c, a, 1n], { from: c });
  await d.call('MultiToken', rc.multi, 'safeBatchTransferFrom', [b, f, [4n, 5n], [5n, 5n], '0x'], { from: b });
  await d.send({ from: f, to: a, value: 3n });
  await internalActivity(d);
  await d.kernel.request({
    method: 'ashlar_addWithdrawals',
    params: [[{ index: `0x${(withdrawalIndex++).toString(16)}`, validatorIndex: '0x9', address: f, amount: '0x10' }]],
  });
  await d.mine();
}

const storages: [string, () => StoragePort][] = [
  ['memory tables', () => memoryStorage()],
  ['LevelDB sublevels', levelLikeMemoryStorage],
];

describe.each(storages)('explorer index in %s', (_name, storage) => {
  it('is restored exactly when evm_revert moves the head back, and keeps indexing after', async () => {
    const k = await explorerKernel({ storage: storage() });
    try {
      const rc = await buildRichChain(k);
      const index = indexOf(k);
      if (!index) throw new Error('no index');
      const before = await dumpIndex(index);
      const snap = await k.request({ method: 'evm_snapshot', params: [] });
      await moreActivity(rc.d, rc);
      const after = await dumpIndex(index);
      expect(after).not.toEqual(before);
      expect(await k.request({ method: 'evm_revert', params: [snap] })).toBe(true);
      expect(await dumpIndex(index)).toEqual(before);
      // The same activity again indexes to the same entries (timestamps aside, blocks are rebuilt alike).
      await moreActivity(rc.d, rc);
      const again = await dumpIndex(index);
      expect(Object.keys(again.idxToken)).toHaveLength(Object.keys(after.idxToken).length);
      expect(again.idxTx).toHaveLength(after.idxTx.length);
      expect(again.idxAddrInternal).toHaveLength(after.idxAddrInternal.length);
      expect(after.idxInternal.length).toBeGreaterThan(before.idxInternal.length);
      expect((await api(k, '/api/v2/tokens')).body.items).toHaveLength(4);
    } finally {
      await k.close();
    }
  });

  /** A rich chain, its index, the head it was built to and the index's dump there. */
  async function richAndDumped(k: Awaited<ReturnType<typeof explorerKernel>>) {
    const rc = await buildRichChain(k);
    const index = indexOf(k);
    if (!index) throw new Error('no index');
    return { rc, index, at: k.chain.head.number, before: await dumpIndex(index) };
  }

  it('matches, after chain.revertTo(n), the index as it was at block n', async () => {
    const k = await explorerKernel({ storage: storage() });
    try {
      const { rc, index, at, before } = await richAndDumped(k);
      await moreActivity(rc.d, rc);
      await moreActivity(rc.d, rc);
      await k.chain.exclusive(() => k.chain.revertTo(at));
      expect(await dumpIndex(index)).toEqual(before);
      const stats = (await api(k, '/api/v2/stats')).body;
      expect(stats.total_blocks).toBe(String(at + 1n));
    } finally {
      await k.close();
    }
  });

  it('undoes a revert over indexed blocks and blocks still waiting to be indexed alike', async () => {
    const k = await explorerKernel({ storage: storage() });
    try {
      const { rc, index, at, before } = await richAndDumped(k);
      await moreActivity(rc.d, rc);
      await index.sync();
      const mid = k.chain.head.number;
      // Indexed up to `mid`; the blocks above it wait in the queue (unless the chain idled).
      await moreActivity(rc.d, rc);
      expect(k.chain.head.number).toBeGreaterThan(mid);
      await k.chain.exclusive(() => k.chain.revertTo(at));
      expect(index.lag).toBe(0);
      expect(await dumpIndex(index)).toEqual(before);
      // New blocks at the reverted numbers are indexed as any others.
      await moreActivity(rc.d, rc);
      const after = await dumpIndex(index);
      expect(after).not.toEqual(before);
      expect((await api(k, '/api/v2/stats')).body.total_blocks).toBe(String(k.chain.head.number + 1n));
    } finally {
      await k.close();
    }
  });
});

describe('explorer index on LevelDB across restarts', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'ashlar-index-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** Records what the rebuild reported. */
  const recorder = () => {
    const seen: { label: string; total: number; done: number; finished: boolean } = {
      label: '',
      total: 0,
      done: 0,
      finished: false,
    };
    const progress: Progress = {
      start: (label, total) => Object.assign(seen, { label, total }),
      update: (done) => Object.assign(seen, { done }),
      done: () => Object.assign(seen, { finished: true }),
    };
    return { seen, progress };
  };

  const open = (path: string, explorer: Parameters<typeof explorerKernel>[0]['explorer'] = {}): Promise<Kernel> =>
    explorerKernel({ storage: levelStorage({ path }), explorer });

  it('rebuilds with reindex to exactly what was indexed live', async () => {
    const path = dir();
    const k1 = await open(path);
    const rc1 = await buildRichChain(k1);
    await internalActivity(rc1.d);
    const live = await dumpIndex(indexOf(k1) as NonNullable<ReturnType<typeof indexOf>>);
    // Internal transactions: the CREATE of each of the rich chain's 3 deployments, Tracer's 2
    // (its own, and Callee by its constructor) and the run's 8 frames below its top call.
    expect(live.idxInternal).toHaveLength(13);
    const head = k1.chain.head.number;
    await k1.close();

    const quiet = recorder();
    const k2 = await open(path, { progress: quiet.progress });
    expect(quiet.seen.label).toBe('');
    await k2.close();

    const r = recorder();
    const k3 = await open(path, { reindex: true, progress: r.progress });
    try {
      expect(r.seen).toMatchObject({ total: Number(head) + 1, done: Number(head) + 1, finished: true });
      expect(r.seen.label).toMatch(/requested/);
      expect(await dumpIndex(indexOf(k3) as NonNullable<ReturnType<typeof indexOf>>)).toEqual(live);
    } finally {
      await k3.close();
    }
  });

  it('writes the same entries whether it indexes a block at a time or many blocks in one batch', async () => {
    // Live: the index brought to the head after every block (batches of one block). Rebuild:
    // batches of 64 blocks, each batch's records (senders, coinbase, token, totals, days)
    // written once at its end. Both must leave every table byte for byte alike.
    const path = dir();
    const k1 = await open(path);
    const index = indexOf(k1) as NonNullable<ReturnType<typeof indexOf>>;
    const rc = await buildRichChain(k1);
    const [a, b, c] = rc.d.accounts;
    for (let i = 0; i < 80; i++) {
      if (i % 10 === 3) await rc.d.call('Token', rc.token, 'transfer', [i % 20 === 3 ? b : c, BigInt(i)]);
      else await rc.d.send({ from: i % 3 === 0 ? b : a, to: i % 2 === 0 ? c : rc.d.accounts[7 + (i % 5)], value: 1n });
      if (i % 25 === 24) await rc.d.mine();
      await index.sync();
    }
    const live = await dumpIndex(index);
    expect(k1.chain.head.number).toBeGreaterThan(64n);
    await k1.close();

    const k2 = await open(path, { reindex: true, progress: recorder().progress });
    try {
      expect(await dumpIndex(indexOf(k2) as NonNullable<ReturnType<typeof indexOf>>)).toEqual(live);
    } finally {
      await k2.close();
    }
  });

  it('catches up on blocks mined while the explorer was off', async () => {
    const path = dir();
    const k1 = await open(path);
    const rc = await buildRichChain(k1);
    await k1.close();

    const plain = await createKernel({
      storage: levelStorage({ path }),
      plugins: explorerPlugins().filter((p) => p.name !== 'explorer' && p.name !== 'index'),
    });
    const d = new ChainDriver(plain);
    await moreActivity(d, rc);
    const behind = plain.chain.head.number;
    await plain.close();

    const r = recorder();
    const k2 = await open(path, { progress: r.progress });
    const caughtUp = await dumpIndex(indexOf(k2) as NonNullable<ReturnType<typeof indexOf>>);
    expect(r.seen.label).toMatch(/behind/);
    expect(r.seen.total).toBe(10);
    expect((await api(k2, '/api/v2/main-page/blocks')).body[0].height).toBe(Number(behind));
    await k2.close();

    const k3 = await open(path, { reindex: true });
    try {
      expect(await dumpIndex(indexOf(k3) as NonNullable<ReturnType<typeof indexOf>>)).toEqual(caughtUp);
    } finally {
      await k3.close();
    }
  });
});

describe('explorer index when a block listener fails', () => {
  it('still applies a written block on the next one (memory tables settle from the head)', async () => {
    let armed = true;
    const thrower = definePlugin({
      name: 'throws-on-block',
      register(ctx) {
        ctx.events.on('block', () => {
          if (armed) {
            armed = false;
            throw new Error('listener failure');
          }
        });
      },
    });
    const k = await createKernel({ plugins: [thrower, ...explorerPlugins()] });
    try {
      const d = new ChainDriver(k);
      await expect(d.send({ to: d.accounts[1], value: 1n })).rejects.toThrow();
      await d.send({ to: d.accounts[2], value: 2n });
      const index = indexOf(k);
      if (!index) throw new Error('no index');
      expect((await index.queries.totals()).txCount).toBe(2n);
      expect((await api(k, '/api/v2/transactions')).body.items).toHaveLength(2);
    } finally {
      await k.close();
    }
  });
});
