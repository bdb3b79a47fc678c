// Every explorer endpoint of spec §4.2 (and the token endpoints of issue 3 item 6): its success
// shape on a chain with transfers, creations, three token standards, reverts, pending
// transactions and withdrawals — and its errors.
import { type Kernel, indexOf } from '@ashlar/core';
import { explorerOf } from '@ashlar/explorer';
import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Hex,
  type RichChain,
  addPending,
  api,
  apiOk,
  buildRichChain,
  explorerKernel,
} from './helpers/explorerChain.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const COINBASE = '0xC014BA5EC014ba5ec014Ba5EC014ba5Ec014bA5E';
const UNKNOWN = '0x00000000000000000000000000000000deadbeef';

let k: Kernel;
let rc: RichChain;
let pending: Hex[];
let a: Hex;
let b: Hex;
let c: Hex;

beforeAll(async () => {
  k = await explorerKernel();
  rc = await buildRichChain(k);
  [a, b, c] = rc.d.accounts;
  pending = await addPending(rc.d, 2);
});

afterAll(() => k.close());

const balanceOf = async (addr: Hex) =>
  BigInt(await k.request<Hex>({ method: 'eth_getBalance', params: [addr, 'latest'] }));
const blockOf = async (hash: Hex) =>
  Number(
    BigInt(
      (await k.request<{ blockNumber: Hex }>({ method: 'eth_getTransactionReceipt', params: [hash] })).blockNumber,
    ),
  );

async function expect422(path: string, param: string): Promise<void> {
  const res = await api(k, path);
  expect(res.status, path).toBe(422);
  expect(res.body.errors[0]).toMatchObject({ title: 'Invalid value', source: { pointer: `/${param}` } });
}

async function expect404(path: string): Promise<void> {
  const res = await api(k, path);
  expect(res.status, path).toBe(404);
  expect(res.body).toEqual({ message: 'Not found' });
}

describe('blocks', () => {
  it('/blocks lists blocks newest first with fee and gas fields', async () => {
    const body = await apiOk(k, '/api/v2/blocks');
    const head = Number(k.chain.head.number);
    expect(body.items.map((x: { height: number }) => x.height)).toEqual(
      Array.from({ length: head + 1 }, (_, i) => head - i),
    );
    expect(body.next_page_params).toBeNull();
    const withTx = body.items.find((x: { tx_count: number }) => x.tx_count === 1);
    expect(withTx).toMatchObject({ type: 'block', miner: { hash: COINBASE, is_contract: false }, uncles_hashes: [] });
    expect(withTx.timestamp).toMatch(TIMESTAMP);
    expect(BigInt(withTx.tx_fees)).toBe(BigInt(withTx.burnt_fees) + BigInt(withTx.priority_fee));
    expect(withTx.rewards).toEqual([{ type: 'Miner Reward', reward: withTx.priority_fee, address_hash: COINBASE }]);
    expect(withTx.gas_used_percentage).toBeGreaterThan(0);
    expect(typeof withTx.gas_target_percentage).toBe('number');
    expect(body.items[0].withdrawals_count).toBe(2);
  });

  it('/blocks?type= filters block kinds; a dev chain has no uncles or reorgs', async () => {
    expect((await apiOk(k, '/api/v2/blocks?type=uncle')).items).toEqual([]);
    expect((await apiOk(k, '/api/v2/blocks?type=reorg')).items).toEqual([]);
    expect((await apiOk(k, '/api/v2/blocks?type=block')).items.length).toBeGreaterThan(0);
    await expect422('/api/v2/blocks?type=orphan', 'type');
    await expect422('/api/v2/blocks?block_number=x&items_count=50', 'block_number');
  });

  it('/blocks/{number_or_hash} answers by number and by hash alike', async () => {
    const n = await blockOf(rc.transferTx);
    const byNumber = await apiOk(k, `/api/v2/blocks/${n}`);
    expect(await apiOk(k, `/api/v2/blocks/${byNumber.hash}`)).toEqual(byNumber);
    expect(byNumber).toMatchObject({ height: n, tx_count: 1, type: 'block', withdrawals_count: 0 });
    await expect404(`/api/v2/blocks/${k.chain.head.number + 5n}`);
    await expect404(`/api/v2/blocks/0x${'11'.repeat(32)}`);
    await expect422('/api/v2/blocks/123qwe', 'block_hash_or_number_param');
    await expect422('/api/v2/blocks/0x1234', 'block_hash_or_number_param');
  });

  it('/blocks/{id}/transactions and /withdrawals list what the block holds', async () => {
    const n = await blockOf(rc.transferTx);
    const txs = await apiOk(k, `/api/v2/blocks/${n}/transactions`);
    expect(txs.items.map((t: { hash: string }) => t.hash)).toEqual([rc.transferTx]);
    expect(txs.next_page_params).toBeNull();
    expect((await apiOk(k, `/api/v2/blocks/${n}/transactions?type=coin_transfer`)).items).toEqual([]);
    const w = await apiOk(k, `/api/v2/blocks/${k.chain.head.number}/withdrawals`);
    expect(w.items).toEqual([
      expect.objectContaining({
        index: 1,
        validator_index: 6,
        amount: '1000000000',
        receiver: expect.objectContaining({ hash: getAddress(rc.withdrawalReceiver) }),
      }),
      expect.objectContaining({ index: 0, validator_index: 5, amount: '1000000000000000000' }),
    ]);
    expect(w.items[0].block_number).toBeUndefined();
    expect((await apiOk(k, `/api/v2/blocks/${n}/withdrawals`)).items).toEqual([]);
    await expect404(`/api/v2/blocks/${k.chain.head.number + 1n}/transactions`);
    await expect422('/api/v2/blocks/abc/withdrawals', 'block_hash_or_number_param');
    await expect422(`/api/v2/blocks/${n}/transactions?index=-1`, 'index');
  });
});

describe('transactions', () => {
  it('/transactions lists mined transactions newest first, or the pool with filter=pending', async () => {
    const body = await apiOk(k, '/api/v2/transactions');
    const total = Number((await indexOf(k)?.queries.totals())?.txCount);
    expect(body.items).toHaveLength(Math.min(total, 50));
    const blocks = body.items.map((t: { block: number }) => t.block);
    expect(blocks).toEqual([...blocks].sort((x, y) => y - x));
    const pool = await apiOk(k, '/api/v2/transactions?filter=pending');
    expect(pool.items.map((t: { hash: string }) => t.hash)).toEqual([...pending].reverse());
    expect(pool.items[0]).toMatchObject({
      block: null,
      status: null,
      result: 'pending',
      fee: { type: 'maximum' },
      position: null,
    });
    expect(pool.next_page_params).toBeNull();
    expect((await apiOk(k, '/api/v2/transactions?filter=validated')).items).toEqual(body.items);
  });

  it('/transactions filters by type and method', async () => {
    const tokens = await apiOk(k, '/api/v2/transactions?type=token_transfer');
    expect(tokens.items.length).toBeGreaterThan(5);
    for (const t of tokens.items) expect(t.tx_types).toContain('token_transfer');
    const coins = await apiOk(k, '/api/v2/transactions?type=coin_transfer');
    expect(coins.items.map((t: { hash: string }) => t.hash)).toContain(rc.valueTx);
    for (const t of coins.items) expect(BigInt(t.value)).toBeGreaterThan(0n);
    const created = await apiOk(k, '/api/v2/transactions?type=token_creation');
    expect(created.items.map((t: { created_contract: { hash: string } }) => t.created_contract.hash).sort()).toEqual(
      [rc.token, rc.nft, rc.multi].map((x) => getAddress(x)).sort(),
    );
    const transfers = await apiOk(k, '/api/v2/transactions?method=transfer');
    expect(transfers.items.map((t: { hash: string }) => t.hash)).toContain(rc.transferTx);
    for (const t of transfers.items) expect(t.method).toBe('transfer');
    const both = await apiOk(k, '/api/v2/transactions?method=transfer&type=token_transfer');
    expect(both.items.map((t: { hash: string }) => t.hash)).not.toContain(rc.revertedTx);
    expect(both.items.length).toBe(transfers.items.length - 1);
    await expect422('/api/v2/transactions?method=frobnicate', 'method');
    await expect422('/api/v2/transactions?type=teleport', 'type');
    await expect422('/api/v2/transactions?filter=all', 'filter');
    await expect422('/api/v2/transactions?block_number=1', 'index');
  });

  it('/transactions/{hash} shows a value transfer with its actual fee', async () => {
    const t = await apiOk(k, `/api/v2/transactions/${rc.valueTx}`);
    expect(t).toMatchObject({
      hash: rc.valueTx,
      status: 'ok',
      result: 'success',
      value: '1000000000000000000',
      method: null,
      tx_types: ['coin_transfer'],
      from: { hash: getAddress(a) },
      to: { hash: getAddress(b), is_contract: false },
      created_contract: null,
      token_transfers: null,
      decoded_input: null,
      actions: [],
      revert_reason: null,
      position: 0,
    });
    expect(t.fee).toEqual({ type: 'actual', value: String(BigInt(t.gas_used) * BigInt(t.gas_price)) });
    expect(t.confirmations).toBe(Number(k.chain.head.number) - t.block + 1);
    expect(t.timestamp).toMatch(TIMESTAMP);
  });

  it('/transactions/{hash} shows creations, reverts, pending and overflowing transfers', async () => {
    const deploy = await apiOk(k, `/api/v2/transactions/${rc.tokenDeploy}`);
    expect(deploy.to).toBeNull();
    expect(deploy.created_contract).toMatchObject({ hash: getAddress(rc.token), is_contract: true });
    expect(deploy.tx_types).toEqual(expect.arrayContaining(['contract_creation', 'token_creation', 'token_transfer']));
    expect(deploy.token_transfers[0]).toMatchObject({
      type: 'token_minting',
      total: { decimals: '18', value: '1000000000000000000000000' },
    });
    const reverted = await apiOk(k, `/api/v2/transactions/${rc.revertedTx}`);
    expect(reverted).toMatchObject({
      status: 'error',
      result: 'Reverted',
      method: 'transfer',
      tx_types: ['contract_call'],
    });
    // Blockscout decodes Solidity's Error(string) whether or not the contract is verified.
    expect(reverted.revert_reason).toEqual({
      method_call: 'Error(string reason)',
      method_id: '08c379a0',
      parameters: [{ name: 'reason', type: 'string', value: 'Token: insufficient balance' }],
    });
    const batch = await apiOk(k, `/api/v2/transactions/${rc.batchTx}`);
    expect(batch.token_transfers).toHaveLength(50);
    expect(batch.token_transfers_overflow).toBe(true);
    expect(batch.token_transfers[0]).toMatchObject({ token_type: 'ERC-1155', total: { token_id: '1', value: '5' } });
    const pool = await apiOk(k, `/api/v2/transactions/${pending[0]}`);
    expect(pool).toMatchObject({
      hash: pending[0],
      result: 'pending',
      status: null,
      block: null,
      fee: { type: 'maximum' },
    });
    await expect404(`/api/v2/transactions/0x${'ab'.repeat(32)}`);
    await expect422('/api/v2/transactions/0x1234', 'transaction_hash_param');
  });

  it('/transactions/{hash}/token-transfers pages an ERC-1155 batch by the spec keys', async () => {
    const first = await apiOk(k, `/api/v2/transactions/${rc.batchTx}/token-transfers`);
    expect(first.items).toHaveLength(50);
    expect(Object.keys(first.next_page_params).sort()).toEqual([
      'batch_block_hash',
      'batch_log_index',
      'batch_transaction_hash',
      'index_in_batch',
    ]);
    const q = new URLSearchParams(first.next_page_params).toString();
    const second = await apiOk(k, `/api/v2/transactions/${rc.batchTx}/token-transfers?${q}`);
    expect(second.items).toHaveLength(10);
    expect(second.next_page_params).toBeNull();
    const ids = [...first.items, ...second.items].map((t: { total: { token_id: string } }) => Number(t.total.token_id));
    expect(ids).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect((await apiOk(k, `/api/v2/transactions/${rc.batchTx}/token-transfers?type=ERC-20`)).items).toEqual([]);
    const erc20 = await apiOk(k, `/api/v2/transactions/${rc.transferTx}/token-transfers`);
    expect(erc20.items[0]).toMatchObject({
      tx_hash: rc.transferTx,
      type: 'token_transfer',
      token: { symbol: 'ASH', type: 'ERC-20' },
    });
    await expect404(`/api/v2/transactions/0x${'ab'.repeat(32)}/token-transfers`);
    await expect422(`/api/v2/transactions/${rc.batchTx}/token-transfers?type=ERC-9`, 'type');
  });

  it('/transactions/{hash}/logs lists the logs with four topic slots', async () => {
    const body = await apiOk(k, `/api/v2/transactions/${rc.transferTx}/logs`);
    expect(body.items).toHaveLength(1);
    const log = body.items[0];
    expect(log).toMatchObject({
      tx_hash: rc.transferTx,
      address: { hash: getAddress(rc.token), is_contract: true },
      decoded: null,
    });
    expect(log.topics).toHaveLength(4);
    expect(log.topics[3]).toBeNull();
    expect(log.topics[0]).toBe('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
    expect((await apiOk(k, `/api/v2/transactions/${pending[0]}/logs`)).items).toEqual([]);
    await expect404(`/api/v2/transactions/0x${'cd'.repeat(32)}/logs`);
    await expect422(`/api/v2/transactions/${rc.transferTx}/logs?index=x`, 'index');
  });
});

describe('addresses', () => {
  it('/addresses lists addresses by balance with the total supply', async () => {
    const body = await apiOk(k, '/api/v2/addresses');
    const balances = body.items.map((x: { coin_balance: string }) => BigInt(x.coin_balance));
    expect(balances).toEqual([...balances].sort((x, y) => (x < y ? 1 : x > y ? -1 : 0)));
    // The withdrawal receiver got 1 ETH (and a gwei) without paying gas: the richest.
    expect(body.items[0]).toMatchObject({ hash: getAddress(rc.withdrawalReceiver), tx_count: '0' });
    const bItem = body.items.find((x: { hash: string }) => x.hash === getAddress(b));
    expect(bItem.tx_count).toBe((await apiOk(k, `/api/v2/addresses/${b}/counters`)).transactions_count);
    expect(Number(body.total_supply)).toBeGreaterThan(199_000);
    expect(body.exchange_rate).toBeNull();
    await expect422('/api/v2/addresses?fetched_coin_balance=1.5&hash=0x00', 'fetched_coin_balance');
    await expect422('/api/v2/addresses?fetched_coin_balance=10', 'hash');
  });

  it('/addresses/{hash} shows balance, counters, creation and token', async () => {
    const acct = await apiOk(k, `/api/v2/addresses/${a}`);
    expect(acct).toMatchObject({
      hash: getAddress(a),
      is_contract: false,
      coin_balance: String(await balanceOf(a)),
      token: null,
    });
    expect(acct).toMatchObject({
      has_token_transfers: true,
      has_tokens: true,
      has_logs: false,
      has_validated_blocks: false,
    });
    const token = await apiOk(k, `/api/v2/addresses/${rc.token}`);
    expect(token).toMatchObject({
      is_contract: true,
      creator_address_hash: getAddress(a),
      creation_tx_hash: rc.tokenDeploy,
      creation_status: 'success',
      has_logs: true,
      token: { name: 'Ash Token', symbol: 'ASH', type: 'ERC-20', decimals: '18' },
    });
    const miner = await apiOk(k, `/api/v2/addresses/${COINBASE}`);
    expect(miner.has_validated_blocks).toBe(true);
    const receiver = await apiOk(k, `/api/v2/addresses/${rc.withdrawalReceiver}`);
    expect(receiver.has_beacon_chain_withdrawals).toBe(true);
  });

  it('answers an address the chain has never seen as Blockscout does, and 422 for a malformed one', async () => {
    const body = await apiOk(k, `/api/v2/addresses/${UNKNOWN}`);
    expect(body).toMatchObject({
      hash: getAddress(UNKNOWN),
      coin_balance: '0',
      tx_count: '0',
      is_contract: false,
      block_number_balance_updated_at: null,
    });
    expect(await apiOk(k, `/api/v2/addresses/${UNKNOWN}/counters`)).toEqual({
      transactions_count: '0',
      token_transfers_count: '0',
      gas_usage_count: '0',
      validations_count: '0',
    });
    expect(await apiOk(k, `/api/v2/addresses/${UNKNOWN}/transactions`)).toEqual({ items: [], next_page_params: null });
    for (const sub of [
      '',
      '/counters',
      '/transactions',
      '/token-transfers',
      '/token-balances',
      '/tokens',
      '/logs',
      '/blocks-validated',
      '/coin-balance-history',
    ]) {
      await expect422(`/api/v2/addresses/0x123${sub}`, 'address_hash_param');
    }
  });

  it('/addresses/{hash}/counters counts transactions, transfers, gas and validations', async () => {
    const counters = await apiOk(k, `/api/v2/addresses/${c}/counters`);
    // b's coins to c, and c's reverted transfer (token transfers to c are not c's transactions)
    expect(counters.transactions_count).toBe('2');
    expect(Number(counters.token_transfers_count)).toBe(6);
    expect(BigInt(counters.gas_usage_count)).toBeGreaterThan(21000n);
    const miner = await apiOk(k, `/api/v2/addresses/${COINBASE}/counters`);
    expect(miner.validations_count).toBe(String(k.chain.head.number));
  });

  it('/addresses/{hash}/transactions lists sent and received transactions, filter=to|from', async () => {
    const all = await apiOk(k, `/api/v2/addresses/${b}/transactions`);
    const hashes = all.items.map((t: { hash: string }) => t.hash);
    expect(hashes).toContain(rc.valueTx);
    const from = await apiOk(k, `/api/v2/addresses/${b}/transactions?filter=from`);
    for (const t of from.items) expect(t.from.hash).toBe(getAddress(b));
    const to = await apiOk(k, `/api/v2/addresses/${b}/transactions?filter=to`);
    for (const t of to.items) expect(t.to.hash).toBe(getAddress(b));
    expect(from.items.length + to.items.length).toBe(all.items.length);
    await expect422(`/api/v2/addresses/${b}/transactions?filter=both`, 'filter');
    await expect422(`/api/v2/addresses/${b}/transactions?sort=size`, 'sort');
  });

  it('/addresses/{hash}/token-transfers filters by type, direction and token', async () => {
    const all = await apiOk(k, `/api/v2/addresses/${c}/token-transfers`);
    expect(all.items).toHaveLength(6);
    const types = all.items.map((t: { token_type: string }) => t.token_type);
    expect(new Set(types)).toEqual(new Set(['ERC-20', 'ERC-721', 'ERC-1155']));
    const nfts = await apiOk(k, `/api/v2/addresses/${c}/token-transfers?type=ERC-721`);
    expect(nfts.items).toHaveLength(1);
    expect(nfts.items[0].total).toEqual({ token_id: '1', token_instance: null });
    const sent = await apiOk(k, `/api/v2/addresses/${c}/token-transfers?filter=from`);
    for (const t of sent.items) expect(t.from.hash).toBe(getAddress(c));
    const ash = await apiOk(k, `/api/v2/addresses/${c}/token-transfers?token=${rc.token}`);
    expect(ash.items.map((t: { token: { address: string } }) => t.token.address)).toEqual([getAddress(rc.token)]);
    expect((await apiOk(k, `/api/v2/addresses/${c}/token-transfers?type=ERC-20,ERC-1155`)).items).toHaveLength(5);
    await expect422(`/api/v2/addresses/${c}/token-transfers?token=0xnope`, 'token');
    await expect422(`/api/v2/addresses/${c}/token-transfers?type=ERC-777`, 'type');
  });

  it('/addresses/{hash}/token-balances and /tokens hold the balances kept by the index', async () => {
    const balances = await apiOk(k, `/api/v2/addresses/${b}/token-balances`);
    const ash = balances.find((x: { token: { symbol: string } }) => x.token.symbol === 'ASH');
    expect(ash).toMatchObject({ value: String(100n * 10n ** 18n), token_id: null, token_instance: null });
    const multi = balances.filter((x: { token: { type: string } }) => x.token.type === 'ERC-1155');
    expect(multi).toHaveLength(60);
    expect(multi.find((x: { token_id: string }) => x.token_id === '1').value).toBe('4');
    const page = await apiOk(k, `/api/v2/addresses/${b}/tokens`);
    expect(page.items).toHaveLength(50);
    expect(BigInt(page.items[0].value)).toBe(100n * 10n ** 18n);
    const rest = await apiOk(
      k,
      `/api/v2/addresses/${b}/tokens?${new URLSearchParams(page.next_page_params).toString()}`,
    );
    expect(rest.items).toHaveLength(11);
    expect((await apiOk(k, `/api/v2/addresses/${b}/tokens?type=ERC-20`)).items).toHaveLength(1);
    expect(await apiOk(k, `/api/v2/addresses/${UNKNOWN}/token-balances`)).toEqual([]);
  });

  it('/addresses/{hash}/logs, /blocks-validated and /coin-balance-history', async () => {
    const logs = await apiOk(k, `/api/v2/addresses/${rc.token}/logs`);
    expect(logs.items).toHaveLength(4);
    const blocks = logs.items.map((l: { block_number: number }) => l.block_number);
    expect(blocks).toEqual([...blocks].sort((x, y) => y - x));
    const transferTopic = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
    expect((await apiOk(k, `/api/v2/addresses/${rc.token}/logs?topic=${transferTopic}`)).items).toHaveLength(3);
    const validated = await apiOk(k, `/api/v2/addresses/${COINBASE}/blocks-validated`);
    expect(validated.items[0].height).toBe(Number(k.chain.head.number));
    expect(validated.items.length).toBe(Number(k.chain.head.number));
    const history = await apiOk(k, `/api/v2/addresses/${a}/coin-balance-history`);
    expect(BigInt(history.items[0].value)).toBe(await balanceOf(a));
    for (let i = 0; i + 1 < history.items.length; i++) {
      expect(BigInt(history.items[i].value) - BigInt(history.items[i].delta)).toBe(BigInt(history.items[i + 1].value));
    }
    expect(history.items.at(-1)).toMatchObject({
      block_number: 0,
      delta: history.items.at(-1).value,
      transaction_hash: null,
    });
    await expect422(`/api/v2/addresses/${a}/coin-balance-history?block_number=-2`, 'block_number');
    await expect422(`/api/v2/addresses/${rc.token}/logs?topic=0x12`, 'topic');
  });
});

describe('tokens', () => {
  it('/tokens lists tokens by holders, by type and by name', async () => {
    const body = await apiOk(k, '/api/v2/tokens');
    // ASHM (a, b, c hold ids of it; ERC-1155 holders count once) and ASH tie at 3 holders.
    const ranked = body.items.map((t: { symbol: string; holders_count: string }) => [t.symbol, t.holders_count]);
    expect(ranked.slice(0, 2).sort()).toEqual([
      ['ASH', '3'],
      ['ASHM', '3'],
    ]);
    expect(ranked[2]).toEqual(['ASHC', '1']);
    expect((await apiOk(k, '/api/v2/tokens?type=ERC-721')).items.map((t: { symbol: string }) => t.symbol)).toEqual([
      'ASHC',
    ]);
    expect((await apiOk(k, '/api/v2/tokens?q=ash c')).items.map((t: { symbol: string }) => t.symbol)).toEqual(['ASHC']);
    expect((await apiOk(k, '/api/v2/tokens?q=ASH')).items).toHaveLength(3);
    await expect422('/api/v2/tokens?type=ERC-20,NFT', 'type');
  });

  it('/tokens/{hash}, its counters, transfers and holders', async () => {
    const t = await apiOk(k, `/api/v2/tokens/${rc.token}`);
    expect(t).toMatchObject({
      address: getAddress(rc.token),
      name: 'Ash Token',
      symbol: 'ASH',
      decimals: '18',
      type: 'ERC-20',
      holders: '3',
      total_supply: String(10n ** 24n),
    });
    expect(await apiOk(k, `/api/v2/tokens/${rc.token}/counters`)).toEqual({
      token_holders_count: '3',
      transfers_count: '3',
    });
    const nft = await apiOk(k, `/api/v2/tokens/${rc.nft}`);
    expect(nft).toMatchObject({ type: 'ERC-721', holders: '1', total_supply: '1', decimals: null });
    const transfers = await apiOk(k, `/api/v2/tokens/${rc.nft}/transfers`);
    expect(transfers.items.map((x: { type: string }) => x.type)).toEqual([
      'token_burning',
      'token_transfer',
      'token_minting',
      'token_minting',
    ]);
    const holders = await apiOk(k, `/api/v2/tokens/${rc.token}/holders`);
    const values = holders.items.map((h: { value: string }) => BigInt(h.value));
    expect(values.reduce((x: bigint, y: bigint) => x + y, 0n)).toBe(10n ** 24n);
    expect(values).toEqual([...values].sort((x, y) => (x < y ? 1 : -1)));
    const multiHolders = await apiOk(k, `/api/v2/tokens/${rc.multi}/holders`);
    expect(multiHolders.items[0]).toMatchObject({ token_id: '7', value: '90', address: { hash: getAddress(a) } });
    await expect404(`/api/v2/tokens/${a}`);
    await expect404(`/api/v2/tokens/${a}/transfers`);
    await expect422('/api/v2/tokens/0xabc/holders', 'address_hash_param');
    await expect422(`/api/v2/tokens/${rc.token}/holders?value=1x&address_hash=${a}`, 'value');
  });
});

describe('search, stats, config, main page, withdrawals', () => {
  it('/search finds addresses, transactions, blocks and tokens by name or symbol prefix', async () => {
    const byName = await apiOk(k, '/api/v2/search?q=ash');
    expect(byName.items.map((i: { symbol: string }) => i.symbol).sort()).toEqual(['ASH', 'ASHC', 'ASHM']);
    expect(byName.items[0]).toMatchObject({ type: 'token', token_url: expect.stringMatching(/^\/token\/0x/) });
    expect((await apiOk(k, '/api/v2/search?q=Ash M')).items.map((i: { name: string }) => i.name)).toEqual([
      'Ash Multi',
    ]);
    const byAddress = await apiOk(k, `/api/v2/search?q=${rc.token}`);
    expect(byAddress.items.map((i: { type: string }) => i.type)).toEqual(['token', 'contract']);
    const byTx = await apiOk(k, `/api/v2/search?q=${rc.transferTx}`);
    expect(byTx.items).toEqual([expect.objectContaining({ type: 'transaction', tx_hash: rc.transferTx })]);
    const head = await apiOk(k, `/api/v2/blocks/${k.chain.head.number}`);
    expect((await apiOk(k, `/api/v2/search?q=${head.hash}`)).items).toEqual([
      expect.objectContaining({ type: 'block', block_number: head.height }),
    ]);
    expect((await apiOk(k, '/api/v2/search?q=3')).items[0]).toMatchObject({ type: 'block', block_number: 3 });
    expect(await apiOk(k, '/api/v2/search?q=')).toEqual({ items: [], next_page_params: null });
    await expect422('/api/v2/search?q=ash&search_key=zz', 'search_key');
  });

  it('/search/check-redirect says where a query leads', async () => {
    expect(await apiOk(k, '/api/v2/search/check-redirect?q=2')).toEqual({
      parameter: '2',
      redirect: true,
      type: 'block',
    });
    expect(await apiOk(k, `/api/v2/search/check-redirect?q=${rc.valueTx}`)).toEqual({
      parameter: rc.valueTx,
      redirect: true,
      type: 'transaction',
    });
    expect(await apiOk(k, `/api/v2/search/check-redirect?q=${UNKNOWN}`)).toEqual({
      parameter: getAddress(UNKNOWN),
      redirect: true,
      type: 'address',
    });
    expect(await apiOk(k, '/api/v2/search/check-redirect?q=nothing')).toEqual({
      parameter: null,
      redirect: false,
      type: null,
    });
  });

  it('/stats and its charts', async () => {
    const totals = await indexOf(k)?.queries.totals();
    const stats = await apiOk(k, '/api/v2/stats');
    expect(stats).toMatchObject({
      total_blocks: String(k.chain.head.number + 1n),
      total_transactions: String(totals?.txCount),
      total_addresses: String(totals?.addressCount),
      transactions_today: String(totals?.txCount),
      coin_price: null,
      market_cap: '0',
    });
    expect(Object.keys(stats.gas_prices)).toEqual(['slow', 'average', 'fast']);
    const chart = await apiOk(k, '/api/v2/stats/charts/transactions');
    expect(chart.chart_data).toHaveLength(30);
    expect(chart.chart_data[0]).toEqual({
      date: new Date(Number(k.chain.head.block.header.timestamp) * 1000).toISOString().slice(0, 10),
      tx_count: Number(totals?.txCount),
      transactions_count: Number(totals?.txCount),
    });
    expect(chart.chart_data[0].date > chart.chart_data[1].date).toBe(true);
    const market = await apiOk(k, '/api/v2/stats/charts/market');
    expect(market.chart_data).toEqual([]);
    expect(Number(market.available_supply)).toBeGreaterThan(199_000);
  });

  it('/config/json-rpc-url names the node endpoint once a server set it', async () => {
    expect(await apiOk(k, '/api/v2/config/json-rpc-url')).toEqual({ json_rpc_url: null });
    const ex = explorerOf(k);
    if (!ex) throw new Error('no explorer');
    ex.jsonRpcUrl = 'http://127.0.0.1:8545';
    expect(await apiOk(k, '/api/v2/config/json-rpc-url')).toEqual({ json_rpc_url: 'http://127.0.0.1:8545' });
  });

  it('/main-page/* and /withdrawals', async () => {
    const blocks = await apiOk(k, '/api/v2/main-page/blocks');
    expect(blocks.map((x: { height: number }) => x.height)).toEqual(
      [0, 1, 2, 3].map((i) => Number(k.chain.head.number) - i),
    );
    const txs = await apiOk(k, '/api/v2/main-page/transactions');
    expect(txs).toHaveLength(6);
    expect(txs).toEqual((await apiOk(k, '/api/v2/transactions')).items.slice(0, 6));
    expect(await apiOk(k, '/api/v2/main-page/indexing-status')).toEqual({
      finished_indexing: true,
      finished_indexing_blocks: true,
      indexed_blocks_ratio: 1,
      indexed_internal_transactions_ratio: 1,
    });
    const w = await apiOk(k, '/api/v2/withdrawals');
    expect(w.items.map((x: { index: number }) => x.index)).toEqual([1, 0]);
    expect(w.items[0]).toMatchObject({
      block_number: Number(k.chain.head.number),
      timestamp: expect.stringMatching(TIMESTAMP),
    });
    expect((await apiOk(k, '/api/v2/withdrawals?index=1')).items.map((x: { index: number }) => x.index)).toEqual([0]);
    await expect422('/api/v2/withdrawals?index=one', 'index');
  });
});

describe('errors', () => {
  it('answers 400 for an unknown /api/v2 path and 404 for the families not served yet', async () => {
    for (const p of ['/api/v2/nope', '/api/v2/blocks/1/nope', '/api/v2/addresses']) {
      const res = await api(k, p);
      if (p === '/api/v2/addresses') expect(res.status).toBe(200);
      else expect(res).toEqual({ status: 400, body: { message: 'Unknown API v2 action' } });
    }
    // smart contracts (issue 7, test/explorer-contracts.test.ts): nothing verified here, so no methods
    for (const p of [
      `/api/v2/smart-contracts/${rc.token}/methods-read`,
      `/api/v2/smart-contracts/${rc.token}/methods-write`,
    ]) {
      await expect404(p);
    }
  });
});
