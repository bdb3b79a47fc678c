import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBlock, createBlockFromRLP } from '@ethereumjs/block';
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel } from '../kernel/createKernel.js';
import type { Kernel } from '../kernel/Kernel.js';
import { exportBlocks } from './exportBlocks.js';
import { importBlocks } from './importBlocks.js';
import { splitRlpItems } from './rlpBlocks.js';

// The execution-apis test chain: geth genesis + 54 blocks, Frontier to BPO2 (conformance README §3).
const TESTS = fileURLToPath(new URL('../../../../test/fixtures/execution-apis/tests', import.meta.url));
const genesis = JSON.parse(readFileSync(join(TESTS, 'genesis.json'), 'utf8'));
const chainRlp = new Uint8Array(readFileSync(join(TESTS, 'chain.rlp')));
const items = [...splitRlpItems(chainRlp)].map((x) => x.item);
const HEAD_HASH = '0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7';

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.close();
  kernel = undefined;
});

const open = async () => {
  kernel = await createKernel({ chain: { genesis }, mining: { automine: false } });
  return kernel;
};

/** Block `n` of chain.rlp re-encoded with another state root: well-formed, but not the chain's. */
function withWrongStateRoot(n: number): Uint8Array {
  const b = createBlockFromRLP(items[n - 1], { common: kernel!.chain.common, setHardfork: true });
  return createBlock(
    {
      header: { ...b.header.toJSON(), stateRoot: new Uint8Array(32).fill(1) },
      transactions: b.transactions,
      uncleHeaders: b.uncleHeaders,
    },
    { common: kernel!.chain.common, setHardfork: true },
  ).serialize();
}

describe('importBlocks', () => {
  it('imports chain.rlp to the vectors head, stored as mined blocks are', async () => {
    const k = await open();
    const announced: bigint[] = [];
    k.events.on('block', (sb) => announced.push(sb.number));
    const progress: number[] = [];
    const r = await importBlocks(k, chainRlp, { onProgress: (p) => progress.push(p.done) });
    expect(r).toEqual({ imported: 54, skipped: 0, head: 54n });
    expect(bytesToHex(k.chain.head.hash)).toBe(HEAD_HASH);
    expect(announced).toHaveLength(54);
    expect(progress.at(-1)).toBe(54);
    // Pre-Byzantium receipts carry the intermediate state root, later ones a status.
    const b3 = await k.chain.getBlock(3n);
    expect(b3?.receipts[0].root).toHaveLength(32);
    expect(b3?.receipts[0].status).toBeUndefined();
    const b42 = await k.chain.getBlock(42n);
    expect(b42?.receipts.every((r) => r.status === 1 || r.status === 0)).toBe(true);
    expect(b42?.senders).toHaveLength(b42?.block.transactions.length ?? -1);
  });

  it('exports the imported chain back byte for byte, and a range on its own', async () => {
    const k = await open();
    await importBlocks(k, chainRlp);
    const all: Uint8Array[] = [];
    for await (const b of exportBlocks(k)) all.push(b);
    expect(bytesToHex(concatBytes(...all))).toBe(bytesToHex(chainRlp));
    const some: Uint8Array[] = [];
    for await (const b of exportBlocks(k, 3n, 5n)) some.push(b);
    expect(some.map(bytesToHex)).toEqual(items.slice(2, 5).map(bytesToHex));
  });

  it('skips blocks it already holds, so a second import changes nothing', async () => {
    const k = await open();
    await importBlocks(k, chainRlp);
    expect(await importBlocks(k, chainRlp)).toEqual({ imported: 0, skipped: 54, head: 54n });
  });

  it('stops at the first invalid block, names it, and keeps the chain at the block before', async () => {
    const k = await open();
    const bad = concatBytes(...items.slice(0, 9), withWrongStateRoot(10), ...items.slice(10));
    const r = await importBlocks(k, bad);
    expect(r.imported).toBe(9);
    expect(r.head).toBe(9n);
    expect(r.error?.number).toBe(10n);
    expect(r.error?.reason).toMatch(/stateRoot/);
    // The failed block left nothing behind: the real rest of the chain still imports on top.
    const rest = await importBlocks(k, concatBytes(...items.slice(9)));
    expect(rest.imported).toBe(45);
    expect(bytesToHex(k.chain.head.hash)).toBe(HEAD_HASH);
  });

  it('refuses a block that does not extend the head', async () => {
    const k = await open();
    const r = await importBlocks(k, concatBytes(items[0], items[2]));
    expect(r.imported).toBe(1);
    expect(r.error).toMatchObject({ number: 3n, index: 1 });
    expect(r.error?.reason).toMatch(/does not follow|parent hash/);
  });

  it('reports a truncated file at the first incomplete block', async () => {
    const k = await open();
    const r = await importBlocks(k, chainRlp.subarray(0, items[0].length + 10));
    expect(r.imported).toBe(1);
    expect(r.error?.index).toBe(1);
    expect(r.error?.reason).toMatch(/truncated/);
  });
});
