// Conformance: every explorer response validates, as served, against Blockscout's OpenAPI 10.2.6
// schema for its path, extended with spec §2.5's names (served beside Blockscout's, with the same
// value); test/helpers/blockscout.ts lists them and the few documented exceptions.
import type { Kernel } from '@ashlar/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_ALIASES, conformanceErrors } from './helpers/blockscout.js';
import {
  type Body,
  type Hex,
  type RichChain,
  addPending,
  api,
  buildRichChain,
  explorerKernel,
} from './helpers/explorerChain.js';

let k: Kernel;
let rc: RichChain;
let pending: Hex[];

beforeAll(async () => {
  k = await explorerKernel();
  rc = await buildRichChain(k);
  pending = await addPending(rc.d, 2);
});

afterAll(() => k.close());

const COINBASE = '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e';

/** Every path served, with the items that exercise its variants (creations, reverts, pending, all token types). */
function paths(): string[] {
  const [a, b, c] = rc.d.accounts;
  const head = k.chain.head.number;
  const txs = [rc.valueTx, rc.tokenDeploy, rc.transferTx, rc.revertedTx, rc.batchTx, pending[0]];
  const addresses = [
    a,
    b,
    c,
    rc.token,
    rc.nft,
    rc.multi,
    rc.withdrawalReceiver,
    COINBASE,
    '0x00000000000000000000000000000000deadbeef',
  ];
  return [
    '/api/v2/blocks',
    '/api/v2/blocks?type=uncle',
    `/api/v2/blocks/${head}`,
    '/api/v2/blocks/0',
    `/api/v2/blocks/${head}/transactions`,
    '/api/v2/blocks/3/transactions',
    `/api/v2/blocks/${head}/withdrawals`,
    '/api/v2/transactions',
    '/api/v2/transactions?filter=pending',
    '/api/v2/transactions?type=token_creation',
    '/api/v2/transactions?method=transfer',
    ...txs.map((h) => `/api/v2/transactions/${h}`),
    ...txs.map((h) => `/api/v2/transactions/${h}/token-transfers`),
    ...txs.map((h) => `/api/v2/transactions/${h}/logs`),
    ...txs.map((h) => `/api/v2/transactions/${h}/state-changes`),
    ...txs.map((h) => `/api/v2/transactions/${h}/summary`),
    '/api/v2/transactions/stats',
    '/api/v2/config/backend-version',
    '/api/v2/addresses',
    ...addresses.flatMap((x) => [
      `/api/v2/addresses/${x}`,
      `/api/v2/addresses/${x}/counters`,
      `/api/v2/addresses/${x}/transactions`,
      `/api/v2/addresses/${x}/token-transfers`,
      `/api/v2/addresses/${x}/token-balances`,
      `/api/v2/addresses/${x}/tokens`,
      `/api/v2/addresses/${x}/logs`,
      `/api/v2/addresses/${x}/blocks-validated`,
      `/api/v2/addresses/${x}/coin-balance-history`,
      `/api/v2/addresses/${x}/tabs-counters`,
      `/api/v2/addresses/${x}/coin-balance-history-by-day`,
      `/api/v2/addresses/${x}/tokens?type=ERC-404`,
      `/api/v2/addresses/${x}/nft`,
      `/api/v2/addresses/${x}/nft/collections`,
      `/api/v2/addresses/${x}/withdrawals`,
    ]),
    '/api/v2/search?q=ash',
    `/api/v2/search?q=${rc.token}`,
    `/api/v2/search?q=${rc.transferTx}`,
    '/api/v2/search?q=2',
    '/api/v2/search/check-redirect?q=2',
    '/api/v2/search/quick?q=ash',
    `/api/v2/search/quick?q=${rc.token}`,
    `/api/v2/search/quick?q=${rc.transferTx}`,
    '/api/v2/token-transfers',
    '/api/v2/token-transfers?type=ERC-1155',
    `/api/v2/tokens/${rc.nft}/instances/1`,
    `/api/v2/tokens/${rc.multi}/instances/7`,
    ...[`${rc.nft}/instances/1`, `${rc.multi}/instances/7`].flatMap((x) => [
      `/api/v2/tokens/${x}/transfers`,
      `/api/v2/tokens/${x}/holders`,
      `/api/v2/tokens/${x}/transfers-count`,
    ]),
    '/api/v2/search/check-redirect?q=nothing',
    '/api/v2/stats',
    '/api/v2/stats/charts/transactions',
    '/api/v2/stats/charts/market',
    '/api/v2/main-page/transactions',
    '/api/v2/main-page/blocks',
    '/api/v2/main-page/indexing-status',
    '/api/v2/withdrawals',
    '/api/v2/withdrawals/counters',
    '/api/v2/tokens',
    '/api/v2/tokens?type=ERC-1155',
    '/api/v2/tokens?q=ash',
    ...[rc.token, rc.nft, rc.multi].flatMap((t) => [
      `/api/v2/tokens/${t}`,
      `/api/v2/tokens/${t}/transfers`,
      `/api/v2/tokens/${t}/holders`,
      `/api/v2/tokens/${t}/counters`,
      `/api/v2/tokens/${t}/instances`,
    ]),
  ];
}

describe('Blockscout OpenAPI 10.2.6 conformance', () => {
  it('every success response validates against the schema of its path', async () => {
    const failures: string[] = [];
    const list = paths();
    for (const p of list) {
      const res = await api(k, p);
      if (res.status !== 200) failures.push(`${p}: status ${res.status}`);
      else for (const e of conformanceErrors(p, res.body)) failures.push(`${p}: ${e}`);
    }
    expect(failures).toEqual([]);
    expect(list.length).toBeGreaterThan(100);
  });

  it('error responses validate against Blockscout’s 404 and 422 schemas', async () => {
    const cases: [string, number][] = [
      [`/api/v2/blocks/${k.chain.head.number + 10n}`, 404],
      ['/api/v2/blocks/123qwe', 422],
      [`/api/v2/transactions/0x${'ab'.repeat(32)}`, 404],
      ['/api/v2/transactions/0x12', 422],
      [`/api/v2/transactions/0x${'ab'.repeat(32)}/logs`, 404],
      ['/api/v2/addresses/0x12', 422],
      ['/api/v2/addresses/0x12/counters', 422],
      [`/api/v2/tokens/${rc.d.accounts[0]}`, 404],
      ['/api/v2/tokens/0x12', 422],
      ['/api/v2/transactions?filter=nope', 422],
    ];
    for (const [p, status] of cases) {
      const res = await api(k, p);
      expect(res.status, p).toBe(status);
      expect(conformanceErrors(p, res.body, status), p).toEqual([]);
    }
  });

  it('rejects what Blockscout would not serve (the check is not vacuous)', async () => {
    const blk = (await api(k, '/api/v2/blocks/1')).body;
    expect(conformanceErrors('/api/v2/blocks/1', { ...blk, height: '1' })).not.toEqual([]);
    expect(conformanceErrors('/api/v2/blocks/1', { ...blk, surprise: true })).not.toEqual([]);
    const { miner: _drop, ...noMiner } = blk;
    expect(conformanceErrors('/api/v2/blocks/1', noMiner)).not.toEqual([]);
    const tx = (await api(k, `/api/v2/transactions/${rc.transferTx}`)).body;
    expect(
      conformanceErrors(`/api/v2/transactions/${rc.transferTx}`, { ...tx, fee: { type: 'estimated', value: '1' } }),
    ).not.toEqual([]);
  });

  it('serves spec §2.5’s names and Blockscout 10’s side by side, with the values JSON-RPC gives', async () => {
    const receipt: Body = await k.request({ method: 'eth_getTransactionReceipt', params: [rc.transferTx] });
    const rpcBlock: Body = await k.request({ method: 'eth_getBlockByNumber', params: [receipt.blockNumber, false] });
    const tx = (await api(k, `/api/v2/transactions/${rc.transferTx}`)).body;
    expect(tx.block).toBe(Number(receipt.blockNumber));
    expect(tx.block_number).toBe(tx.block);
    const burnt = BigInt(rpcBlock.baseFeePerGas) * BigInt(receipt.gasUsed);
    expect(tx.tx_burnt_fee).toBe(burnt.toString());
    expect(tx.transaction_burnt_fee).toBe(tx.tx_burnt_fee);
    expect(tx.tx_types).toContain('token_transfer');
    expect(tx.transaction_types).toEqual(tx.tx_types);
    expect(tx.transaction_tag).toBe(tx.tx_tag);
    expect(tx.has_error_in_internal_transactions).toBe(tx.has_error_in_internal_txs);
    const transfer = tx.token_transfers[0];
    expect(transfer.tx_hash).toBe(rc.transferTx);
    expect(transfer.transaction_hash).toBe(rc.transferTx);
    expect(transfer.token.address.toLowerCase()).toBe(receipt.logs[0].address);
    expect(transfer.token.address_hash).toBe(transfer.token.address);
    expect(transfer.token.holders_count).toBe(transfer.token.holders);
    const log = (await api(k, `/api/v2/transactions/${rc.transferTx}/logs`)).body.items[0];
    expect(log.transaction_hash).toBe(rc.transferTx);
    expect(log.tx_hash).toBe(rc.transferTx);

    const blk = (await api(k, `/api/v2/blocks/${Number(receipt.blockNumber)}`)).body;
    expect(blk.tx_count).toBe(rpcBlock.transactions.length);
    expect(blk.transactions_count).toBe(blk.tx_count);
    const fees = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
    expect(blk.tx_fees).toBe(fees.toString());
    expect(blk.transaction_fees).toBe(blk.tx_fees);

    const deploy: Body = await k.request({ method: 'eth_getTransactionReceipt', params: [rc.tokenDeploy] });
    const token = (await api(k, `/api/v2/addresses/${rc.token}`)).body;
    expect(token.creation_tx_hash).toBe(deploy.transactionHash);
    expect(token.creation_transaction_hash).toBe(token.creation_tx_hash);

    const [a] = rc.d.accounts;
    const nonce: Hex = await k.request({ method: 'eth_getTransactionCount', params: [a, 'latest'] });
    const list = (await api(k, '/api/v2/addresses')).body.items as Body[];
    const item = list.find((x) => x.hash.toLowerCase() === a.toLowerCase());
    expect(BigInt(item.transactions_count)).toBeGreaterThanOrEqual(BigInt(nonce));
    expect(item.tx_count).toBe(item.transactions_count);
  });

  it('rejects a spec name whose value differs from its Blockscout twin, or a missing one', async () => {
    const blk = (await api(k, '/api/v2/blocks/1')).body;
    expect(conformanceErrors('/api/v2/blocks/1', blk)).toEqual([]);
    expect(conformanceErrors('/api/v2/blocks/1', { ...blk, tx_count: blk.tx_count + 1 })).not.toEqual([]);
    const { tx_fees: _fees, ...noSpecName } = blk;
    expect(conformanceErrors('/api/v2/blocks/1', noSpecName)).not.toEqual([]);
    const { transaction_fees: _tf, ...noBlockscoutName } = blk;
    expect(conformanceErrors('/api/v2/blocks/1', noBlockscoutName)).not.toEqual([]);
    const tx = (await api(k, `/api/v2/transactions/${rc.transferTx}`)).body;
    const token = { ...tx.token_transfers[0].token, holders: '999' };
    const bad = { ...tx, token_transfers: [{ ...tx.token_transfers[0], token }] };
    expect(conformanceErrors(`/api/v2/transactions/${rc.transferTx}`, bad)).not.toEqual([]);
    expect(Object.keys(SPEC_ALIASES)).toContain('Block');
  });
});
