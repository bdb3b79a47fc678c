// The endpoints Blockscout's web frontend (v2.0.3) asks for beyond spec §4.2, checked value by
// value against what JSON-RPC says of the same chain (their shapes are checked in
// explorer-conformance.test.ts against Blockscout's OpenAPI 10.2.6).
import { createRequire } from 'node:module';
import type { Kernel } from '@ashlar/core';
import { AbiCoder, Interface, id } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArtifact } from './helpers/contracts.js';
import {
  type Body,
  type Hex,
  type RichChain,
  addPending,
  api,
  apiOk,
  buildRichChain,
  explorerKernel,
} from './helpers/explorerChain.js';

let k: Kernel;
let rc: RichChain;

const rpc = <T = Body>(method: string, params: unknown[] = []): Promise<T> => k.request<T>({ method, params });
const hexOf = (n: number | bigint): Hex => `0x${n.toString(16)}`;

beforeAll(async () => {
  k = await explorerKernel();
  rc = await buildRichChain(k);
});

afterAll(() => k.close());

/** An ERC-20 balance by eth_call at a block. */
async function tokenBalance(token: Hex, holder: Hex, block: Hex): Promise<bigint> {
  const abi = new Interface(loadArtifact('Token').abi);
  const out = await rpc<Hex>('eth_call', [{ to: token, data: abi.encodeFunctionData('balanceOf', [holder]) }, block]);
  return BigInt(out);
}

describe('what Blockscout’s frontend asks for', () => {
  it('/config/backend-version names the node', async () => {
    const body = await apiOk(k, '/api/v2/config/backend-version');
    expect(body.backend_version).toMatch(/^ashlar\/\d+\.\d+\.\d+/);
  });

  it('/transactions/stats sums the last 24 hours of blocks as JSON-RPC lists them', async () => {
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    let count = 0;
    let fees = 0n;
    for (let n = Number(head.number); n >= 0; n--) {
      const b = await rpc('eth_getBlockByNumber', [hexOf(n), false]);
      if (BigInt(b.timestamp) < BigInt(head.timestamp) - 86_400n) break;
      count += b.transactions.length;
      for (const h of b.transactions) {
        const r = await rpc('eth_getTransactionReceipt', [h]);
        fees += BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice);
      }
    }
    const body = await apiOk(k, '/api/v2/transactions/stats');
    expect(body.transactions_count_24h).toBe(String(count));
    expect(body.transaction_fees_sum_24h).toBe(fees.toString());
    expect(body.transaction_fees_avg_24h).toBe((fees / BigInt(count)).toString());
    expect(body.pending_transactions_count).toBe('0');

    // Two days later only the new block counts: the window moves with the head.
    await rpc('evm_increaseTime', [2 * 86_400]);
    const h = await rc.d.send({ to: rc.d.accounts[3], value: 1n });
    const r = await rpc('eth_getTransactionReceipt', [h]);
    const later = await apiOk(k, '/api/v2/transactions/stats');
    expect(later.transactions_count_24h).toBe('1');
    expect(later.transaction_fees_sum_24h).toBe((BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice)).toString());
  });

  it('/transactions/stats is a route of its own, not a malformed hash', async () => {
    const res = await api(k, '/api/v2/transactions/stats');
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('errors');
  });

  it('/addresses/{hash}/tabs-counters counts each tab, capped at 51 as Blockscout', async () => {
    const logs = await rpc<Body[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: rc.multi }]);
    expect(logs.length).toBeGreaterThan(0);
    const multi = await apiOk(k, `/api/v2/addresses/${rc.multi}/tabs-counters`);
    expect(multi.logs_count).toBe(Math.min(51, logs.length));
    const [a, , c] = rc.d.accounts;
    const nonce = Number(await rpc<Hex>('eth_getTransactionCount', [a, 'latest']));
    const counters = await apiOk(k, `/api/v2/addresses/${a}/counters`);
    const tabs = await apiOk(k, `/api/v2/addresses/${a}/tabs-counters`);
    expect(tabs.transactions_count).toBe(Math.min(51, Number(counters.transactions_count)));
    expect(Number(counters.transactions_count)).toBeGreaterThanOrEqual(Math.min(51, nonce));
    // c holds the ERC-20, the ERC-721 #1 and ERC-1155 ids 1, 2, 3 and 7.
    const holdings = await apiOk(k, `/api/v2/addresses/${c}/tabs-counters`);
    expect(holdings.token_balances_count).toBe(6);
    const unknown = await apiOk(k, '/api/v2/addresses/0x00000000000000000000000000000000deadbeef/tabs-counters');
    expect(Object.values(unknown)).toEqual(Object.values(unknown).map(() => 0));
    expect((await api(k, '/api/v2/addresses/0x12/tabs-counters')).status).toBe(422);
  });

  it('/addresses/{hash}/coin-balance-history-by-day ends with today’s balance', async () => {
    const b = rc.d.accounts[1];
    const body = await apiOk(k, `/api/v2/addresses/${b}/coin-balance-history-by-day`);
    expect(body.days).toBe(10);
    expect(body.items).toHaveLength(10);
    const head = await rpc('eth_getBlockByNumber', ['latest', false]);
    const today = new Date(Number(head.timestamp) * 1000).toISOString().slice(0, 10);
    expect(body.items[9].date).toBe(today);
    expect(body.items[9].value).toBe(BigInt(await rpc<Hex>('eth_getBalance', [b, 'latest'])).toString());
    const dates = body.items.map((i: Body) => Date.parse(i.date));
    for (let i = 1; i < dates.length; i++) expect(dates[i] - dates[i - 1]).toBe(86_400_000);
  });

  it('/transactions/{hash}/state-changes gives the balances JSON-RPC reads before and after', async () => {
    const [a, b] = rc.d.accounts;
    const receipt = await rpc('eth_getTransactionReceipt', [rc.transferTx]);
    const block = await rpc('eth_getBlockByNumber', [receipt.blockNumber, false]);
    const prev = hexOf(BigInt(receipt.blockNumber) - 1n);
    const at = receipt.blockNumber as Hex;
    const body = await apiOk(k, `/api/v2/transactions/${rc.transferTx}/state-changes`);
    expect(body.next_page_params).toBeNull();
    const find = (type: string, who: string) =>
      body.items.find((x: Body) => x.type === type && x.address.hash.toLowerCase() === who.toLowerCase());

    const sender = find('coin', a);
    expect(sender.balance_before).toBe(BigInt(await rpc<Hex>('eth_getBalance', [a, prev])).toString());
    expect(sender.balance_after).toBe(BigInt(await rpc<Hex>('eth_getBalance', [a, at])).toString());
    expect(BigInt(sender.change)).toBe(-BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice));
    expect(sender.is_miner).toBe(false);

    const miner = find('coin', block.miner);
    expect(miner.is_miner).toBe(true);
    const tip = BigInt(receipt.effectiveGasPrice) - BigInt(block.baseFeePerGas);
    expect(BigInt(miner.change)).toBe(tip * BigInt(receipt.gasUsed));

    for (const holder of [a, b]) {
      const t = find('token', holder);
      expect(t.token.address_hash.toLowerCase()).toBe(rc.token.toLowerCase());
      expect(t.balance_before).toBe((await tokenBalance(rc.token, holder, prev)).toString());
      expect(t.balance_after).toBe((await tokenBalance(rc.token, holder, at)).toString());
    }
    expect(BigInt(find('token', b).change)).toBe(100n * 10n ** 18n);
    // The token contract's own coin balance did not move: left out, as unchanged balances are.
    expect(find('coin', rc.token)).toBeUndefined();
  });

  it('/transactions/{hash}/state-changes of ERC-1155 batches and pending transactions', async () => {
    const b = rc.d.accounts[1];
    const body = await apiOk(k, `/api/v2/transactions/${rc.batchTx}/state-changes`);
    const ids = body.items.filter((x: Body) => x.type === 'token' && x.address.hash.toLowerCase() === b.toLowerCase());
    // mintBatch gave b 5 of each of 60 ids: 60 token rows, on two pages after the coin rows.
    const all = [...body.items];
    let next = body.next_page_params;
    while (next) {
      const page = await apiOk(k, `/api/v2/transactions/${rc.batchTx}/state-changes?items_count=${next.items_count}`);
      all.push(...page.items);
      next = page.next_page_params;
    }
    const tokenRows = all.filter((x: Body) => x.type === 'token');
    expect(tokenRows).toHaveLength(60);
    expect(ids.every((x: Body) => x.balance_before === '0' && x.balance_after === '5' && x.change === '5')).toBe(true);
    expect(new Set(tokenRows.map((x: Body) => x.token_id)).size).toBe(60);
    expect((await api(k, `/api/v2/transactions/0x${'ab'.repeat(32)}/state-changes`)).status).toBe(404);
    expect((await api(k, `/api/v2/transactions/${rc.batchTx}/state-changes?items_count=x`)).status).toBe(422);
  });

  it('/transactions/{hash}/summary says what the transaction did, in Blockscout’s template form', async () => {
    const value = await apiOk(k, `/api/v2/transactions/${rc.valueTx}/summary`);
    expect(value.success).toBe(true);
    const [send] = value.data.summaries;
    expect(send.summary_template).toContain('{native}');
    expect(send.summary_template_variables.amount).toEqual({ type: 'currency', value: '1' });
    const tx = await rpc('eth_getTransactionByHash', [rc.valueTx]);
    expect(send.summary_template_variables.to_address.value.hash.toLowerCase()).toBe(tx.to);

    const transfer = await apiOk(k, `/api/v2/transactions/${rc.transferTx}/summary`);
    const moved = transfer.data.summaries.find((s: Body) => s.summary_template_variables.token);
    expect(moved.summary_template_variables.amount.value).toBe('100');
    expect(moved.summary_template_variables.token.value.symbol).toBe('ASH');

    const deploy = await apiOk(k, `/api/v2/transactions/${rc.tokenDeploy}/summary`);
    const receipt = await rpc('eth_getTransactionReceipt', [rc.tokenDeploy]);
    const created = deploy.data.summaries[0].summary_template_variables.contract_address.value.hash;
    expect(created.toLowerCase()).toBe(receipt.contractAddress);
  });

  it('/addresses/{hash}/tokens?type= answers empty for the token types Blockscout knows and this chain has none of', async () => {
    const [a] = rc.d.accounts;
    for (const type of ['ERC-404', 'ERC-7984', '[ERC-404]']) {
      const res = await api(k, `/api/v2/addresses/${a}/tokens?type=${type}`);
      expect(res.status, type).toBe(200);
      expect(res.body).toEqual({ items: [], next_page_params: null });
    }
    const mixed = await apiOk(k, `/api/v2/addresses/${a}/tokens?type=ERC-20,ERC-404`);
    expect(mixed.items.map((i: Body) => i.token.type)).toEqual(['ERC-20']);
    expect((await apiOk(k, `/api/v2/addresses/${a}/token-transfers?type=ERC-404`)).items).toEqual([]);
    expect((await apiOk(k, '/api/v2/tokens?type=ERC-7984')).items).toEqual([]);
    expect((await api(k, `/api/v2/addresses/${a}/tokens?type=ERC-999`)).status).toBe(422);
  });

  it('/addresses?sort=balance&order=asc pages the poorest first, with balances JSON-RPC agrees with', async () => {
    const walk = async (path: string) => {
      const out: Body[] = [];
      let url = path;
      for (let i = 0; i < 20; i++) {
        const page = await apiOk(k, url);
        out.push(...page.items);
        if (!page.next_page_params) return out;
        expect(page.next_page_params).toMatchObject({ sort: 'balance', order: url.includes('asc') ? 'asc' : 'desc' });
        url = `${path}&${new URLSearchParams(page.next_page_params as Record<string, string>)}`;
      }
      throw new Error('too many pages');
    };
    // Enough addresses for two pages: 40 fresh ones, each sent a different small amount.
    for (let i = 1; i <= 40; i++)
      await rc.d.send({
        to: `0x${(0xa5b0000n * 2n ** 120n + BigInt(i)).toString(16).padStart(40, '0')}`,
        value: BigInt(i),
      });
    const asc = await walk('/api/v2/addresses?sort=balance&order=asc');
    const desc = await walk('/api/v2/addresses?sort=balance&order=desc');
    expect(asc.length).toBeGreaterThan(50);
    expect(asc.map((x) => x.hash)).toEqual(desc.map((x) => x.hash).reverse());
    const values = asc.map((x) => BigInt(x.coin_balance));
    for (let i = 1; i < values.length; i++) expect(values[i] >= values[i - 1]).toBe(true);
    for (const x of [asc[0], asc[asc.length - 1]])
      expect(BigInt(await rpc<Hex>('eth_getBalance', [x.hash, 'latest']))).toBe(BigInt(x.coin_balance));
  });

  it('/tokens?sort=holders_count&order=asc lists the least held first', async () => {
    const desc = (await apiOk(k, '/api/v2/tokens?sort=holders_count&order=desc')).items;
    const asc = (await apiOk(k, '/api/v2/tokens?sort=holders_count&order=asc')).items;
    expect(asc.map((t: Body) => t.address_hash)).toEqual(desc.map((t: Body) => t.address_hash).reverse());
    const counts = asc.map((t: Body) => Number(t.holders_count));
    expect(counts).toEqual([...counts].sort((x, y) => x - y));
    expect((await api(k, '/api/v2/tokens?order=sideways')).status).toBe(422);
  });

  it('/token-transfers lists every transfer the chain’s logs carry, newest first', async () => {
    const single = id('TransferSingle(address,address,address,uint256,uint256)');
    const batch = id('TransferBatch(address,address,address,uint256[],uint256[])');
    const transfer = id('Transfer(address,address,uint256)');
    const logs = await rpc<Body[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
    const coder = AbiCoder.defaultAbiCoder();
    let all = 0;
    let erc1155 = 0;
    for (const l of logs) {
      if (l.topics[0] === transfer) all++;
      else if (l.topics[0] === single) {
        all++;
        erc1155++;
      } else if (l.topics[0] === batch) {
        const [ids] = coder.decode(['uint256[]', 'uint256[]'], l.data);
        all += ids.length;
        erc1155 += ids.length;
      }
    }
    const walk = async (path: string) => {
      const out: Body[] = [];
      let url = path;
      for (let i = 0; i < 50; i++) {
        const page = await apiOk(k, url);
        out.push(...page.items);
        if (!page.next_page_params) return out;
        const sep = path.includes('?') ? '&' : '?';
        url = `${path}${sep}${new URLSearchParams(page.next_page_params as Record<string, string>)}`;
      }
      throw new Error('too many pages');
    };
    const items = await walk('/api/v2/token-transfers');
    expect(items).toHaveLength(all);
    const blocks = items.map((t) => t.block_number);
    expect(blocks).toEqual([...blocks].sort((x, y) => y - x));
    expect(new Set(items.map((t) => `${t.transaction_hash}:${t.log_index}:${t.total.token_id}`)).size).toBe(all);
    const only1155 = await walk('/api/v2/token-transfers?type=ERC-1155');
    expect(only1155).toHaveLength(erc1155);
    expect(only1155.every((t) => t.token_type === 'ERC-1155')).toBe(true);
    expect((await apiOk(k, '/api/v2/token-transfers?type=ERC-404')).items).toEqual([]);
  });

  it('/search/quick suggests what /search finds, with Blockscout’s address_hash and transaction_hash', async () => {
    const quick = await apiOk(k, '/api/v2/search/quick?q=ash');
    const full = await apiOk(k, '/api/v2/search?q=ash');
    expect(quick).toEqual(full.items);
    expect(quick.every((i: Body) => i.address_hash === i.address)).toBe(true);
    const tx = await apiOk(k, `/api/v2/search/quick?q=${rc.transferTx}`);
    expect(tx[0]).toMatchObject({ type: 'transaction', transaction_hash: rc.transferTx, tx_hash: rc.transferTx });
    const token = await apiOk(k, `/api/v2/search/quick?q=${rc.token}`);
    expect(token.map((i: Body) => i.address_hash.toLowerCase())).toContain(rc.token.toLowerCase());
    expect(await apiOk(k, '/api/v2/search/quick?q=')).toEqual([]);
  });

  it('NFT instances and an address’s NFTs hold what ownerOf and balanceOf say', async () => {
    const [a, b, c] = rc.d.accounts;
    const nftAbi = new Interface(loadArtifact('Collectible').abi);
    const multiAbi = new Interface(loadArtifact('MultiToken').abi);
    const call = async (to: Hex, data: string) => rpc<Hex>('eth_call', [{ to, data }, 'latest']);
    const ownerOf = async (id: bigint) =>
      nftAbi.decodeFunctionResult('ownerOf', await call(rc.nft, nftAbi.encodeFunctionData('ownerOf', [id])))[0];
    const balance1155 = async (who: Hex, id: bigint) =>
      BigInt(await call(rc.multi, multiAbi.encodeFunctionData('balanceOf', [who, id])));

    // Collectible: #1 minted to a then moved to c, #2 minted to b then burnt.
    const instances = await apiOk(k, `/api/v2/tokens/${rc.nft}/instances`);
    expect(instances.items.map((i: Body) => i.id)).toEqual(['1']);
    expect(instances.items[0].owner.hash.toLowerCase()).toBe((await ownerOf(1n)).toLowerCase());
    expect(instances.items[0].owner.hash.toLowerCase()).toBe(c.toLowerCase());
    expect((await api(k, `/api/v2/tokens/${rc.nft}/instances/2`)).status).toBe(404);

    const seven = await apiOk(k, `/api/v2/tokens/${rc.multi}/instances/7`);
    expect(seven.owner).toBeNull();
    // a minted 100 and sent c 10; b got 5 in the 60-id batch.
    const sum = (await balance1155(a, 7n)) + (await balance1155(b, 7n)) + (await balance1155(c, 7n));
    expect(BigInt(seven.value)).toBe(sum);
    const all1155 = await apiOk(k, `/api/v2/tokens/${rc.multi}/instances`);
    expect(all1155.items).toHaveLength(50);
    expect(all1155.items[0].id).toBe('60');
    const rest = await apiOk(
      k,
      `/api/v2/tokens/${rc.multi}/instances?unique_token=${all1155.next_page_params.unique_token}`,
    );
    expect(rest.items.map((i: Body) => i.id)).toEqual(['10', '9', '8', '7', '6', '5', '4', '3', '2', '1']);

    const nfts = await apiOk(k, `/api/v2/addresses/${c}/nft`);
    const held = nfts.items.map((i: Body) => `${i.token.address_hash.toLowerCase()}#${i.id}=${i.value}`);
    const want = [`${rc.nft.toLowerCase()}#1=1`];
    for (const id of [1n, 2n, 3n, 7n]) want.push(`${rc.multi.toLowerCase()}#${id}=${await balance1155(c, id)}`);
    expect([...held].sort()).toEqual([...want].sort());
    const erc721Only = await apiOk(k, `/api/v2/addresses/${c}/nft?type=ERC-721`);
    expect(erc721Only.items.map((i: Body) => i.token_type)).toEqual(['ERC-721']);
    expect((await apiOk(k, `/api/v2/addresses/${b}/nft?type=ERC-721`)).items).toEqual([]);

    // #1's transfers are the Transfer logs with id 1 in their fourth topic.
    const idTopic = `0x${'1'.padStart(64, '0')}`;
    const logs = await rpc<Body[]>('eth_getLogs', [
      {
        fromBlock: '0x0',
        toBlock: 'latest',
        address: rc.nft,
        topics: [id('Transfer(address,address,uint256)'), null, null, idTopic],
      },
    ]);
    const count = await apiOk(k, `/api/v2/tokens/${rc.nft}/instances/1/transfers-count`);
    expect(count.transfers_count).toBe(logs.length);
    const moves = await apiOk(k, `/api/v2/tokens/${rc.nft}/instances/1/transfers`);
    expect(moves.items.map((t: Body) => t.transaction_hash)).toEqual(logs.map((l) => l.transactionHash).reverse());
    const holders = await apiOk(k, `/api/v2/tokens/${rc.multi}/instances/7/holders`);
    for (const h of holders.items) expect(BigInt(h.value)).toBe(await balance1155(h.address.hash, 7n));
    expect(holders.items.map((h: Body) => h.address.hash.toLowerCase()).sort()).toEqual(
      [a, b, c].map((x) => x.toLowerCase()).sort(),
    );

    const collections = await apiOk(k, `/api/v2/addresses/${c}/nft/collections`);
    const byToken = Object.fromEntries(
      collections.items.map((x: Body) => [x.token.address_hash.toLowerCase(), x.token_instances.length]),
    );
    expect(byToken).toEqual({ [rc.nft.toLowerCase()]: 1, [rc.multi.toLowerCase()]: 4 });
  });

  it('/withdrawals/counters and an address’s withdrawals match the blocks’ EIP-4895 withdrawals', async () => {
    const head = Number(await rpc<Hex>('eth_blockNumber'));
    const all: Body[] = [];
    for (let n = 0; n <= head; n++)
      all.push(...((await rpc('eth_getBlockByNumber', [hexOf(n), false])).withdrawals ?? []));
    expect(all.length).toBeGreaterThan(0);
    const counters = await apiOk(k, '/api/v2/withdrawals/counters');
    expect(counters.withdrawals_count).toBe(String(all.length));
    const gwei = all.reduce((n, w) => n + BigInt(w.amount), 0n);
    expect(counters.withdrawals_sum).toBe((gwei * 10n ** 9n).toString());
    const e = rc.withdrawalReceiver;
    const mine = all.filter((w) => w.address.toLowerCase() === e.toLowerCase());
    const listed = await apiOk(k, `/api/v2/addresses/${e}/withdrawals`);
    expect(listed.items.map((w: Body) => w.index)).toEqual(mine.map((w) => Number(w.index)).reverse());
    expect(listed.items.map((w: Body) => w.amount)).toEqual(
      mine.map((w) => (BigInt(w.amount) * 10n ** 9n).toString()).reverse(),
    );
    expect((await apiOk(k, `/api/v2/addresses/${rc.d.accounts[0]}/withdrawals`)).items).toEqual([]);
  });

  it('/smart-contracts/verification/config offers what this node verifies, with the installed solc', async () => {
    const config = await apiOk(k, '/api/v2/smart-contracts/verification/config');
    const solc = createRequire(import.meta.url)('solc/package.json') as { version: string };
    expect(config.solidity_compiler_versions).toEqual([`v${solc.version}`]);
    expect(config.verification_options).toContain('standard-input');
    expect(config.license_types.mit).toBe(3);
    expect(config.vyper_compiler_versions).toEqual([]);
  });

  it('counts pooled transactions in /transactions/stats', async () => {
    const pending = await addPending(rc.d, 2);
    const body = await apiOk(k, '/api/v2/transactions/stats');
    expect(body.pending_transactions_count).toBe(String(pending.length));
    const status = await rpc('txpool_status');
    expect(BigInt(body.pending_transactions_count)).toBe(BigInt(status.pending));
  });
});
