import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { createDevCommon } from '../chain/chainCommon.js';
import { u64 } from '../util/hex.js';
import { ChainStore, type StoreOp } from './ChainStore.js';
import { META } from './keys.js';
import { memoryStorage } from './memoryStorage.js';
import type { StoragePort } from './StoragePort.js';
import { orderedMemoryPort } from './orderedMemoryPort.testing.js';

async function openStore(port: StoragePort): Promise<ChainStore> {
  await port.open();
  return new ChainStore(port, createDevCommon(31337n, 'prague'));
}

const hashOf = (n: number, salt = 0) => Uint8Array.from({ length: 32 }, (_, i) => (n * 31 + i * 7 + salt) & 0xff);
const logContext = (n: number) =>
  RLP.encode([
    hashOf(n),
    bigIntToUnpaddedBytes(BigInt(1_700_000_000 + n)),
    new Uint8Array(256).fill(n & 0xff),
    [hashOf(n, 1)],
  ]);

/** The writes of block `n` (a stand-in record per table; log contexts on blocks with logs only). */
/** Block `n`'s key in the tables keyed by number: one array shared by its operations on even blocks (as ChainStore does), a new one per operation on odd ones. */
function numberKey(n: number): () => Uint8Array {
  const shared = u64(BigInt(n));
  return n % 2 === 0 ? () => shared : () => u64(BigInt(n));
}

function blockWrites(s: ChainStore, n: number): StoreOp[] {
  const key = numberKey(n);
  const ops: StoreOp[] = [
    { type: 'put', sublevel: s.blocks, key: key(), value: Uint8Array.of(1, n & 0xff) },
    { type: 'put', sublevel: s.hashes, key: hashOf(n), value: u64(BigInt(n)) },
    { type: 'put', sublevel: s.receipts, key: key(), value: Uint8Array.of(2, n & 0xff) },
    { type: 'put', sublevel: s.txs, key: hashOf(n, 1), value: u64(BigInt(n)) },
    { type: 'put', sublevel: s.meta, key: META.head, value: u64(BigInt(n)) },
  ];
  if (n % 3 !== 0) ops.push({ type: 'put', sublevel: s.logCtx, key: key(), value: logContext(n) });
  if (n % 4 === 0) ops.push({ type: 'put', sublevel: s.callFrames, key: key(), value: Uint8Array.of(3) });
  if (n % 5 === 0) ops.push({ type: 'put', sublevel: s.preState, key: key(), value: hashOf(n, 2) });
  return ops;
}

function removeWrites(s: ChainStore, n: number): StoreOp[] {
  const key = numberKey(n);
  return [s.blocks, s.receipts, s.logCtx, s.callFrames, s.preState]
    .map((sublevel): StoreOp => ({ type: 'del', sublevel, key: key() }))
    .concat([
      { type: 'del', sublevel: s.hashes, key: hashOf(n) },
      { type: 'del', sublevel: s.txs, key: hashOf(n, 1) },
    ]);
}

/** Everything a reader can see of blocks 0..max: each table's value per block, the scans. */
async function view(s: ChainStore, max: number) {
  const rows: unknown[] = [];
  for (let n = 0; n <= max; n++) {
    const k = u64(BigInt(n));
    rows.push([
      await s.read(s.blocks, k),
      await s.read(s.receipts, k),
      await s.read(s.logCtx, k),
      await s.read(s.callFrames, k),
      await s.read(s.preState, k),
      await s.read(s.hashes, hashOf(n)),
      await s.read(s.txs, hashOf(n, 1)),
    ]);
  }
  return {
    rows,
    head: await s.getMeta(META.head),
    from0: await s.storedNumbersFrom(0n),
    from7: await s.storedNumbersFrom(7n),
    logs: await s.logContexts(0n, BigInt(max)),
    logs5to11: await s.logContexts(5n, 11n),
    logsNone: await s.logContexts(BigInt(max + 1), BigInt(max + 100)),
  };
}

// A chain in memory keeps its per-block sublevels in MemoryBlockTables: every read must see what
// the ordered store (memory-level, as on LevelDB) shows after the same batches.
describe('ChainStore in memory storage', () => {
  it('reads, scans and removes blocks exactly as the ordered store does', async () => {
    const [mem, ordered] = await Promise.all([openStore(memoryStorage()), openStore(orderedMemoryPort())]);
    for (const s of [mem, ordered]) {
      for (let n = 0; n < 30; n++) await s.write(blockWrites(s, n));
      // evm_revert-like: the head moves back past blocks 20..29, then the chain grows again.
      const removal: StoreOp[] = [];
      for (let n = 29; n >= 20; n--) removal.push(...removeWrites(s, n));
      await s.write(removal);
      for (let n = 20; n < 25; n++) await s.write(blockWrites(s, n));
    }
    const [a, b] = [await view(mem, 35), await view(ordered, 35)];
    expect(a).toEqual(b);
    // The scans see what was written: blocks 0..24, log contexts on blocks not divisible by 3.
    expect(a.from0).toEqual(Array.from({ length: 25 }, (_, i) => BigInt(i)));
    expect(a.logs.map((c) => c.number)).toEqual(
      Array.from({ length: 25 }, (_, i) => BigInt(i)).filter((n) => n % 3n !== 0n),
    );
    expect(a.logs5to11.map((c) => c.number)).toEqual([5n, 7n, 8n, 10n, 11n]);
    // Those tables are not in the ordered store of the memory chain, nor is its head (MemoryHeads).
    expect(await mem.blocks.get(u64(1n))).toBeUndefined();
    expect(await mem.meta.get(META.head)).toBeUndefined();
    expect((await mem.getHead())?.number).toBe(24n);
  });

  it('applies nothing of a batch the store refuses', async () => {
    const port = memoryStorage();
    const s = await openStore(port);
    await s.write(blockWrites(s, 1));
    await port.close();
    await expect(s.write(blockWrites(s, 2))).rejects.toThrow();
    expect(await s.read(s.blocks, u64(2n))).toBeUndefined();
    expect(await s.read(s.blocks, u64(1n))).toEqual(Uint8Array.of(1, 1));
  });

  it("keeps a memory chain's head and head state out of the store, answering as the ordered store does", async () => {
    const mem = await openStore(memoryStorage());
    const ordered = await openStore(orderedMemoryPort());
    const root = hashOf(7, 3);
    for (const s of [mem, ordered]) {
      await s.write([{ type: 'put', sublevel: s.meta, key: META.genesis, value: hashOf(0) }]);
      await s.write([
        { type: 'put', sublevel: s.meta, key: META.head, value: Uint8Array.of(...u64(7n), ...hashOf(7)) },
        { type: 'put', sublevel: s.meta, key: META.headState, value: root },
      ]);
    }
    const answers = async (s: ChainStore) => [
      await s.getHead(),
      await s.getMeta(META.head),
      await s.getMeta(META.headState),
      await s.getMeta(META.genesis),
      await s.getMeta(META.logCtxFrom),
    ];
    expect(await answers(mem)).toEqual(await answers(ordered));
    expect((await mem.getHead())?.number).toBe(7n);
    expect(await mem.getMeta(META.headState)).toEqual(root);
    // Written once keys (genesis, fork record ...) stay in the store: readers open it directly.
    // A batch with nothing else for the store (an automined block's) does not go to it.
    expect(await mem.meta.get(META.genesis)).toEqual(hashOf(0));
    expect(await mem.meta.get(META.headState)).toBeUndefined();
    // hardhat_reset deletes them with the genesis.
    for (const s of [mem, ordered]) {
      await s.write([
        { type: 'del', sublevel: s.meta, key: META.head },
        { type: 'del', sublevel: s.meta, key: META.headState },
        { type: 'del', sublevel: s.meta, key: META.genesis },
      ]);
    }
    expect(await answers(mem)).toEqual(await answers(ordered));
    expect(await mem.getHead()).toBeUndefined();
    expect(await mem.getMeta(META.headState)).toBeUndefined();
  });

  it('refuses a batch of a closed memory chain that only moves its head', async () => {
    const port = memoryStorage();
    const s = await openStore(port);
    const head = (n: bigint): StoreOp => ({ type: 'put', sublevel: s.meta, key: META.head, value: u64(n) });
    await s.write([head(1n)]);
    await port.close();
    await expect(s.write([head(2n)])).rejects.toThrow();
    expect((await s.getHead())?.number).toBe(1n);
  });
});
