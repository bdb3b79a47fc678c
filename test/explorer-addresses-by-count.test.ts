// /api/v2/addresses?sort=transactions_count: the addresses of the balance list, ordered by their
// transaction count (sent and received, a creation's contract as receiver), paged with
// Blockscout's keys; counts checked against the blocks themselves.
import type { Kernel } from '@ashlar/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Body, ChainDriver, type Hex, api, apiOk, explorerKernel } from './helpers/explorerChain.js';

const RECIPIENTS = 60;
const recipient = (i: number): Hex => `0x${(0xc0de0000 + i).toString(16).padStart(40, '0')}`;

let k: Kernel;
let d: ChainDriver;

beforeAll(async () => {
  k = await explorerKernel();
  d = new ChainDriver(k);
  for (let i = 0; i < RECIPIENTS; i++) await d.send({ to: recipient(i), value: 1n });
  // A few addresses with more: recipient 3 gets 4 transactions, recipient 7 gets 2, account 1 sends 3.
  for (let i = 0; i < 3; i++) await d.send({ to: recipient(3), value: 1n });
  await d.send({ to: recipient(7), value: 1n });
  for (let i = 0; i < 3; i++) await d.send({ from: d.accounts[1], to: recipient(40 + i), value: 1n });
  await d.deploy('Counter');
}, 60_000);

afterAll(() => k.close());

/** Transactions per address, counted from every block's transactions and receipts. */
async function countsFromBlocks(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const add = (a: string | null | undefined) => {
    if (a) out.set(a.toLowerCase(), (out.get(a.toLowerCase()) ?? 0) + 1);
  };
  const head = Number(await k.request<Hex>({ method: 'eth_blockNumber', params: [] }));
  for (let n = 1; n <= head; n++) {
    const b = await k.request<{ transactions: { hash: Hex; from: Hex; to: Hex | null }[] }>({
      method: 'eth_getBlockByNumber',
      params: [`0x${n.toString(16)}`, true],
    });
    for (const tx of b.transactions) {
      add(tx.from);
      const receiver =
        tx.to ??
        (await k.request<{ contractAddress: Hex }>({ method: 'eth_getTransactionReceipt', params: [tx.hash] }))
          .contractAddress;
      if (receiver.toLowerCase() !== tx.from.toLowerCase()) add(receiver);
    }
  }
  return out;
}

async function walk(path: string): Promise<{ items: Body[]; params: Body[] }> {
  const items: Body[] = [];
  const params: Body[] = [];
  let page = await apiOk(k, path);
  for (;;) {
    items.push(...page.items);
    if (!page.next_page_params) return { items, params };
    params.push(page.next_page_params);
    const q = new URLSearchParams(page.next_page_params);
    page = await apiOk(k, `${path}${path.includes('?') ? '&' : '?'}${q}`);
  }
}

describe('/addresses?sort=transactions_count', () => {
  it('lists every address of the balance list once, by transaction count, most first', async () => {
    const byBalance = await walk('/api/v2/addresses');
    const byCount = await walk('/api/v2/addresses?sort=transactions_count');
    expect(byCount.items.map((x) => x.hash).sort()).toEqual(byBalance.items.map((x) => x.hash).sort());
    expect(new Set(byCount.items.map((x) => x.hash)).size).toBe(byCount.items.length);

    const counts = byCount.items.map((x) => Number(x.transactions_count));
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    const truth = await countsFromBlocks();
    for (const x of byCount.items) expect(Number(x.transactions_count)).toBe(truth.get(x.hash.toLowerCase()) ?? 0);
    // account 0 sent all but 3 of them; recipient 3 received 4
    expect(byCount.items[0].hash.toLowerCase()).toBe(d.accounts[0].toLowerCase());
    const r3 = byCount.items.findIndex((x) => x.hash.toLowerCase() === recipient(3));
    expect(byCount.items[r3].transactions_count).toBe('4');

    expect(byCount.params.length).toBeGreaterThan(0);
    expect(Object.keys(byCount.params[0]).sort()).toEqual([
      'fetched_coin_balance',
      'hash',
      'items_count',
      'sort',
      'transactions_count',
    ]);
  });

  it('order=asc lists the fewest first; a cursor missing its pair is refused with 422', async () => {
    const asc = await walk('/api/v2/addresses?sort=transactions_count&order=asc');
    const counts = asc.items.map((x) => Number(x.transactions_count));
    expect(counts).toEqual([...counts].sort((x, y) => x - y));
    const bad = await api(k, '/api/v2/addresses?sort=transactions_count&transactions_count=3');
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('hash');
  });
});
