// Conformance: every explorer response validates against Blockscout's OpenAPI 10.2.6 schema for
// its path (test/helpers/blockscout.ts documents the exceptions: spec §2.5's field names are
// served where Blockscout renamed them, and `to: null` for creations).
import type { Kernel } from '@ashlar/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceErrors, toBlockscoutNames } from './helpers/blockscout.js';
import { type Hex, type RichChain, addPending, api, buildRichChain, explorerKernel } from './helpers/explorerChain.js';

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
    ]),
    '/api/v2/search?q=ash',
    `/api/v2/search?q=${rc.token}`,
    `/api/v2/search?q=${rc.transferTx}`,
    '/api/v2/search?q=2',
    '/api/v2/search/check-redirect?q=2',
    '/api/v2/search/check-redirect?q=nothing',
    '/api/v2/stats',
    '/api/v2/stats/charts/transactions',
    '/api/v2/stats/charts/market',
    '/api/v2/main-page/transactions',
    '/api/v2/main-page/blocks',
    '/api/v2/main-page/indexing-status',
    '/api/v2/withdrawals',
    '/api/v2/tokens',
    '/api/v2/tokens?type=ERC-1155',
    '/api/v2/tokens?q=ash',
    ...[rc.token, rc.nft, rc.multi].flatMap((t) => [
      `/api/v2/tokens/${t}`,
      `/api/v2/tokens/${t}/transfers`,
      `/api/v2/tokens/${t}/holders`,
      `/api/v2/tokens/${t}/counters`,
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

  it('translates only spec §2.5 names: the served fields are the spec’s', async () => {
    const tx = (await api(k, `/api/v2/transactions/${rc.transferTx}`)).body;
    expect(tx).toHaveProperty('block');
    expect(tx).toHaveProperty('tx_types');
    expect(tx.token_transfers[0]).toHaveProperty('tx_hash');
    expect(tx.token_transfers[0].token).toHaveProperty('holders');
    const blk = (await api(k, '/api/v2/blocks/1')).body;
    expect(blk).toHaveProperty('tx_count');
    expect(blk).toHaveProperty('tx_fees');
    const renamed = toBlockscoutNames(tx) as Record<string, unknown>;
    expect(renamed).toHaveProperty('block_number', tx.block);
    expect(renamed).toHaveProperty('transaction_types');
    expect(renamed).not.toHaveProperty('block');
  });
});
