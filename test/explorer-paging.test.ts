// Spec §8 pagination: 50 items a page, next_page_params with the spec's keys, null at the end;
// following next_page_params from page 1 visits every item exactly once, newest first, while new
// blocks keep arriving.
import { type Kernel, indexOf } from '@ashlar/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Body, ChainDriver, type Hex, apiOk, explorerKernel } from './helpers/explorerChain.js';

const COINBASE = '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e';
const RECIPIENTS = 150;
const WITHDRAWAL_BLOCKS = 3;
const WITHDRAWALS_PER_BLOCK = 40;

let k: Kernel;
let d: ChainDriver;
let a: Hex;
let token: Hex;
let nextWithdrawal = 0;

const recipient = (i: number): Hex => `0x${(0xbeef0000 + i).toString(16).padStart(40, '0')}`;

async function addWithdrawals(count: number): Promise<void> {
  const list = Array.from({ length: count }, () => ({
    index: `0x${(nextWithdrawal++).toString(16)}`,
    validatorIndex: '0x1',
    address: recipient(0),
    amount: '0x5',
  }));
  await k.request({ method: 'ashlar_addWithdrawals', params: [list] });
  await d.mine();
}

/** One round of new activity: a block with a coin transfer, one with a token transfer, sometimes withdrawals. */
async function activity(round: number): Promise<void> {
  await d.send({ to: recipient(round % 7), value: 1n });
  await d.call('Token', token, 'transfer', [recipient(round % 5), 1n]);
  if (round % 2 === 0) await addWithdrawals(3);
}

beforeAll(async () => {
  k = await explorerKernel();
  d = new ChainDriver(k);
  a = d.accounts[0];
  ({ address: token } = await d.deploy('Token', ['Pager', 'PGR', 10n ** 24n]));
  for (let i = 0; i < RECIPIENTS; i++) {
    await d.send({ to: recipient(i), value: BigInt(i + 1) });
    await d.call('Token', token, 'transfer', [recipient(i), BigInt(i + 1)]);
  }
  for (let i = 0; i < WITHDRAWAL_BLOCKS; i++) await addWithdrawals(WITHDRAWALS_PER_BLOCK);
}, 60_000);

afterAll(() => k.close());

interface Walk {
  items: Body[];
  pages: number;
  keys: string[][];
}

/** Follows next_page_params to the end, running `between` before each next page. */
async function walk(path: string, between: (page: number) => Promise<void> = async () => {}): Promise<Walk> {
  const items: Body[] = [];
  const keys: string[][] = [];
  let page = await apiOk(k, path);
  let pages = 1;
  for (;;) {
    expect(page.items.length).toBeLessThanOrEqual(50);
    items.push(...page.items);
    if (page.next_page_params === null) break;
    expect(page.items).toHaveLength(50);
    keys.push(Object.keys(page.next_page_params).sort());
    await between(pages);
    const sep = path.includes('?') ? '&' : '?';
    page = await apiOk(k, `${path}${sep}${new URLSearchParams(page.next_page_params).toString()}`);
    pages++;
  }
  return { items, pages, keys };
}

function expectOncePerItem(w: Walk, key: (x: Body) => string, expected: number): void {
  const ids = w.items.map(key);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toHaveLength(expected);
}

/** Positions must strictly decrease: newest first, nothing seen twice, nothing skipped between. */
function expectDescending(values: bigint[]): void {
  for (let i = 1; i < values.length; i++) expect(values[i] < values[i - 1]).toBe(true);
}

const txPos = (t: Body) => BigInt(t.block) * 1_000_000n + BigInt(t.position);
const transferPos = (t: Body) => BigInt(t.block_number) * 1_000_000n + BigInt(t.log_index);

describe('paging while blocks arrive', () => {
  it('/transactions, /blocks and /addresses/{hash}/transactions', async () => {
    const txCount = Number((await indexOf(k)?.queries.totals())?.txCount);
    const head = Number(k.chain.head.number);
    const aTxs = Number((await apiOk(k, `/api/v2/addresses/${a}/counters`)).transactions_count);
    let round = 0;
    const txs = await walk('/api/v2/transactions', () => activity(round++));
    expectOncePerItem(txs, (t) => t.hash, txCount);
    expectDescending(txs.items.map(txPos));
    expect(txs.keys[0]).toEqual(['block_number', 'index', 'items_count']);

    const headNow = Number(k.chain.head.number);
    const blocks = await walk('/api/v2/blocks', () => activity(round++));
    expectOncePerItem(blocks, (b) => String(b.height), headNow + 1);
    expect(blocks.keys[0]).toEqual(['block_number', 'items_count']);
    expect(headNow).toBeGreaterThan(head);

    const mine = await walk(`/api/v2/addresses/${a}/transactions`, () => activity(round++));
    expect(mine.items.length).toBeGreaterThanOrEqual(aTxs);
    expectDescending(mine.items.map(txPos));
    expect(new Set(mine.items.map((t) => t.hash)).size).toBe(mine.items.length);
    expect(mine.keys[0]).toEqual(['block_number', 'fee', 'hash', 'index', 'inserted_at', 'items_count', 'value']);
  });

  it('token transfers of an address and of a token, and a contract’s logs', async () => {
    const transfers = Number((await apiOk(k, `/api/v2/tokens/${token}/counters`)).transfers_count);
    let round = 1000;
    const byToken = await walk(`/api/v2/tokens/${token}/transfers`, () => activity(round++));
    expectOncePerItem(byToken, (t) => `${t.tx_hash}:${t.log_index}`, transfers);
    expectDescending(byToken.items.map(transferPos));
    expect(byToken.keys[0]).toEqual(['block_number', 'index']);

    const aTransfers = Number((await apiOk(k, `/api/v2/addresses/${a}/counters`)).token_transfers_count);
    const byAddress = await walk(`/api/v2/addresses/${a}/token-transfers`, () => activity(round++));
    expectOncePerItem(byAddress, (t) => `${t.tx_hash}:${t.log_index}`, aTransfers);
    expectDescending(byAddress.items.map(transferPos));
    expect(byAddress.keys[0]).toEqual(['block_number', 'index']);

    const logCount = Number(
      (await indexOf(k)?.queries.address(Uint8Array.from(Buffer.from(token.slice(2), 'hex'))))?.logCount,
    );
    const logs = await walk(`/api/v2/addresses/${token}/logs`, () => activity(round++));
    expectOncePerItem(logs, (l) => `${l.tx_hash}:${l.index}`, logCount);
    expectDescending(logs.items.map((l) => BigInt(l.block_number) * 1_000_000n + BigInt(l.index)));
  });

  it('/withdrawals, coin-balance history and validated blocks', async () => {
    const withdrawals = nextWithdrawal;
    let round = 2000;
    const w = await walk('/api/v2/withdrawals', () => activity(round++));
    expectOncePerItem(w, (x) => String(x.index), withdrawals);
    expectDescending(w.items.map((x) => BigInt(x.index)));
    expect(w.keys[0]).toEqual(['index', 'items_count']);

    const changes = (
      await indexOf(k)?.queries.coinHistory(Uint8Array.from(Buffer.from(a.slice(2), 'hex')), undefined, 100_000)
    )?.length;
    const history = await walk(`/api/v2/addresses/${a}/coin-balance-history`, () => activity(round++));
    expectOncePerItem(history, (x) => String(x.block_number), changes ?? -1);
    expectDescending(history.items.map((x) => BigInt(x.block_number)));

    const mined = Number(k.chain.head.number);
    const validated = await walk(`/api/v2/addresses/${COINBASE}/blocks-validated`, () => activity(round++));
    expectOncePerItem(validated, (b) => String(b.height), mined);
  });
});

describe('paging ranked lists', () => {
  it('/tokens/{hash}/holders and /addresses visit every holder and address once', async () => {
    const holders = Number((await apiOk(k, `/api/v2/tokens/${token}/counters`)).token_holders_count);
    const h = await walk(`/api/v2/tokens/${token}/holders`);
    expectOncePerItem(h, (x) => x.address.hash, holders);
    expectDescending(h.items.map((x) => BigInt(x.value) * 2n ** 160n + BigInt(x.address.hash)));
    expect(h.keys[0]).toEqual(['address_hash', 'items_count', 'value']);

    const addressCount = Number((await indexOf(k)?.queries.totals())?.addressCount);
    const all = await walk('/api/v2/addresses');
    expectOncePerItem(all, (x) => x.hash, addressCount);
    expect(all.keys[0]).toEqual(['fetched_coin_balance', 'hash', 'items_count', 'transactions_count']);
  });
});
