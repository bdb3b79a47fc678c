import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NodeOptions, createNode } from 'ashlar';
import { afterAll, describe, expect, it } from 'vitest';

/** Tests that apply to one storage kind are not registered for the other (no skipped tests). */
const noTest = (_name: string, _fn: () => unknown): void => undefined;

type Kernel = Awaited<ReturnType<typeof createNode>>;
interface Receipt {
  transactionHash: string;
  blockNumber: string;
  blockHash: string;
  status: string;
  gasUsed: string;
  effectiveGasPrice: string;
  cumulativeGasUsed: string;
  from: string;
  to: string;
}
interface Block {
  number: string;
  hash: string;
  parentHash: string;
  stateRoot: string;
  transactions: string[];
}

const ETH = 10n ** 18n;
const tmp = mkdtempSync(join(tmpdir(), 'ashlar-storage-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const get = <T>(k: Kernel, method: string, params: unknown[] = []) => k.request<T>({ method, params });

/** Everything a reader can see of the chain: head, blocks, receipts, balances and nonces. */
async function snapshot(k: Kernel, hashes: string[]) {
  const head = BigInt(await get<string>(k, 'eth_blockNumber'));
  const blocks: Block[] = [];
  for (let n = 0n; n <= head; n++)
    blocks.push(await get<Block>(k, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]));
  const receipts = await Promise.all(hashes.map((h) => get<Receipt>(k, 'eth_getTransactionReceipt', [h])));
  const accounts = k.chain.accounts.slice(0, 3).map((a) => a.address.toString());
  const balances = await Promise.all(accounts.map((a) => get<string>(k, 'eth_getBalance', [a, 'latest'])));
  const nonces = await Promise.all(accounts.map((a) => get<string>(k, 'eth_getTransactionCount', [a, 'latest'])));
  return { head, blocks, receipts, balances, nonces };
}

async function sendMany(k: Kernel, count: number): Promise<string[]> {
  const [from, to] = k.chain.accounts.map((a) => a.address.toString());
  const hashes: string[] = [];
  for (let i = 0; i < count; i++)
    hashes.push(await get<string>(k, 'eth_sendTransaction', [{ from, to, value: `0x${ETH.toString(16)}` }]));
  return hashes;
}

describe.each([
  ['memory', (): NodeOptions => ({ memory: true })],
  ['level', (): NodeOptions => ({ db: join(tmp, 'level') })],
] as const)('%s storage', (kind, options) => {
  const opts = options();

  it('mines transactions and reads blocks, receipts and balances back', async () => {
    const k = await createNode(opts);
    try {
      const hashes = await sendMany(k, 5);
      const s = await snapshot(k, hashes);
      expect(s.head).toBe(5n);
      for (let i = 0; i < 5; i++) {
        const r = s.receipts[i];
        expect(r.status).toBe('0x1');
        expect(BigInt(r.blockNumber)).toBe(BigInt(i + 1));
        expect(r.blockHash).toBe(s.blocks[i + 1].hash);
        expect(s.blocks[i + 1].transactions).toEqual([hashes[i]]);
        expect(s.blocks[i + 1].parentHash).toBe(s.blocks[i].hash);
        const tx = await get<{ hash: string; blockNumber: string; nonce: string }>(k, 'eth_getTransactionByHash', [
          hashes[i],
        ]);
        expect(tx).toMatchObject({ hash: hashes[i], blockNumber: r.blockNumber, nonce: `0x${i.toString(16)}` });
      }
      expect(s.nonces).toEqual(['0x5', '0x0', '0x0']);
      expect(BigInt(s.balances[1])).toBe(10_005n * ETH);
      const fees = s.receipts.reduce((sum, r) => sum + BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice), 0n);
      expect(fees).toBeGreaterThan(0n);
      expect(BigInt(s.balances[0])).toBe(9_995n * ETH - fees);
      expect(s.balances[2]).toBe(`0x${(10_000n * ETH).toString(16)}`);
    } finally {
      await k.close();
    }
  });

  (kind === 'level' ? it : noTest)('close and reopen: same head, balances and receipts', async () => {
    const first = await createNode(opts);
    const hashes: string[] = [];
    // The first test left 5 blocks behind; add 3 more and remember all transactions.
    for (let n = 1; n <= 5; n++)
      hashes.push(...(await get<Block>(first, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).transactions);
    hashes.push(...(await sendMany(first, 3)));
    const before = await snapshot(first, hashes);
    expect(before.head).toBe(8n);
    await first.close();

    const again = await createNode(opts);
    try {
      const after = await snapshot(again, hashes);
      expect(after).toEqual(before);
      // And the reopened chain keeps going from where it was.
      const [next] = await sendMany(again, 1);
      const r = await get<Receipt>(again, 'eth_getTransactionReceipt', [next]);
      expect(r.blockNumber).toBe('0x9');
      expect(r.status).toBe('0x1');
    } finally {
      await again.close();
    }
  });

  (kind === 'level' ? it : noTest)('another genesis on the same path is refused', async () => {
    await expect(createNode({ ...opts, chain: { accounts: 5 } })).rejects.toThrow(/genesis/);
    await expect(createNode({ ...opts, chain: { balance: 1n } })).rejects.toThrow(/genesis/);
    await expect(createNode({ ...opts, chain: { chainId: 7 } })).rejects.toThrow(/chain id 31337, not 7/);
    // A refused open leaves the database closed and intact.
    const k = await createNode(opts);
    try {
      expect(await get(k, 'eth_blockNumber')).toBe('0x9');
    } finally {
      await k.close();
    }
  });

  // Concurrent nonce-less eth_sendTransaction calls from one account each get their own nonce.
  it('concurrent eth_sendTransaction from one account all succeed', async () => {
    const k = await createNode(kind === 'memory' ? opts : { db: join(tmp, 'concurrent') });
    try {
      const [from, to] = k.chain.accounts.map((a) => a.address.toString());
      const hashes = await Promise.all(
        [1, 2, 3, 4].map(() => get<string>(k, 'eth_sendTransaction', [{ from, to, value: '0x1' }])),
      );
      expect(new Set(hashes).size).toBe(4);
    } finally {
      await k.close();
    }
  });

  (kind === 'memory' ? it : noTest)('memory chains start fresh every time', async () => {
    const k = await createNode(opts);
    try {
      expect(await get(k, 'eth_blockNumber')).toBe('0x0');
    } finally {
      await k.close();
    }
  });
});
