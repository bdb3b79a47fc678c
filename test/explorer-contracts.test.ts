// Verified contracts in the explorer (issue 7): decoded inputs, logs and custom-error reverts,
// read/write method descriptors with current values, query-read-method through the EVM, proxy
// detection (EIP-1167, EIP-1967 slot and beacon, EIP-1822) and the /smart-contracts list.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kernel } from '@ashlar/core';
import { explorerOf } from '@ashlar/explorer';
import { getAddress, id } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, writeHardhatBuild } from './helpers/buildInfo.js';
import { type Body, ChainDriver, type Hex, api, apiOk, explorerKernel } from './helpers/explorerChain.js';
import { conformanceErrors } from './helpers/blockscout.js';
import { apiPost } from './helpers/explorerPost.js';

const sel = (sig: string) => id(sig).slice(2, 10);
const EIP1967_IMPL = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const EIP1967_BEACON = '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50';
const PROXIABLE = '0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7';

let tmp: string;
let k: Kernel;
let d: ChainDriver;
let owner: Hex;
let other: Hex;
let counter: Hex;
let token: Hex;
let addTx: Hex;
let failTx: Hex;

const word = (a: string) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'ashlar-contracts-'));
  const artifacts = writeHardhatBuild(tmp, compile());
  k = await explorerKernel({ explorer: { artifacts } });
  d = new ChainDriver(k);
  [owner, other] = d.accounts;
  counter = (await d.deploy('Counter')).address;
  token = (await d.deploy('Token', ['Gold', 'GLD', 1000n])).address;
  addTx = await d.call('Counter', counter, 'add', [5n]);
  await d.call('Token', token, 'transfer', [other, 30n]);
  failTx = await d.send({ from: other, to: counter, data: `0x${sel('guarded()')}` as Hex, gas: 100_000n });
  const w = explorerOf(k)?.contracts?.watcher;
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 20));
    await w?.idle();
  }
});

afterAll(async () => {
  await k.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('decoding with verified ABIs', () => {
  it('decodes a transaction input and names its method', async () => {
    const tx = await apiOk(k, `/api/v2/transactions/${addTx}`);
    expect(tx.method).toBe('add');
    expect(tx.decoded_input).toEqual({
      method_call: 'add(uint256 amount)',
      method_id: '1003e2d2',
      parameters: [{ name: 'amount', type: 'uint256', value: '5' }],
    });
    expect(tx.to.is_verified).toBe(true);
    expect(tx.to.name).toBe('Counter');
  });

  it('decodes logs with names, types, values and indexed flags', async () => {
    const logs = await apiOk(k, `/api/v2/transactions/${addTx}/logs`);
    expect(logs.items[0].decoded).toEqual({
      method_call: 'Incremented(address indexed by, uint256 newValue)',
      method_id: sel('Incremented(address,uint256)'),
      parameters: [
        { name: 'by', type: 'address', value: getAddress(owner), indexed: true },
        { name: 'newValue', type: 'uint256', value: '5', indexed: false },
      ],
    });
  });

  it('names a custom-error revert', async () => {
    const tx = await apiOk(k, `/api/v2/transactions/${failTx}`);
    expect(tx.status).toBe('error');
    expect(tx.revert_reason).toEqual({
      method_call: 'NotOwner(address who)',
      method_id: sel('NotOwner(address)'),
      parameters: [{ name: 'who', type: 'address', value: getAddress(other) }],
    });
  });
});

describe('methods and query-read-method', () => {
  it('lists read methods with method ids and current values', async () => {
    const read: Body[] = await apiOk(k, `/api/v2/smart-contracts/${counter}/methods-read?from=${other}`);
    const byName = Object.fromEntries(read.map((m) => [m.name, m]));
    expect(Object.keys(byName).sort()).toEqual(['count', 'fail', 'guarded', 'owner', 'panic']);
    expect(byName.count.method_id).toBe(sel('count()'));
    expect(byName.count.outputs).toEqual([{ internalType: 'uint256', name: '', type: 'uint256', value: '5' }]);
    expect(byName.owner.outputs[0].value).toBe(getAddress(owner));
    expect(byName.owner.type).toBe('function');
    expect(byName.owner.stateMutability).toBe('view');
    // called as `from`, guarded() reverts: the descriptor says so
    expect(byName.guarded.error).toMatch(/execution reverted/);
  });

  it('lists write methods', async () => {
    const write: Body[] = await apiOk(k, `/api/v2/smart-contracts/${counter}/methods-write`);
    expect(write.map((m) => [m.name, m.method_id]).sort()).toEqual([
      ['add', sel('add(uint256)')],
      ['increment', sel('increment()')],
    ]);
    expect(write[0].inputs).toBeDefined();
  });

  it('calls a read method through the EVM, with args and from', async () => {
    const q = (body: Record<string, unknown>, a: Hex = token) =>
      apiPost(k, `/api/v2/smart-contracts/${a}/query-read-method`, body);
    expect((await q({ method_id: sel('balanceOf(address)'), args: [other], contract_type: 'regular' })).body).toEqual([
      { is_error: false, result: { names: ['uint256'], output: [{ type: 'uint256', value: '30' }] } },
    ]);
    expect((await q({ method_id: `0x${sel('name()')}`, args: [] })).body[0].result.output).toEqual([
      { type: 'string', value: 'Gold' },
    ]);
    expect((await q({ method_id: sel('guarded()'), args: [], from: owner }, counter)).body[0].result.output).toEqual([
      { type: 'bool', value: 'true' },
    ]);
  });

  it('reports reverts as is_error with raw, code and message (and the custom error)', async () => {
    const revert = await apiPost(k, `/api/v2/smart-contracts/${counter}/query-read-method`, {
      method_id: sel('guarded()'),
      args: [],
      from: other,
    });
    expect(revert.status).toBe(200);
    expect(revert.body).toEqual([
      {
        is_error: true,
        result: {
          raw: `0x${sel('NotOwner(address)')}${word(other).slice(2)}`,
          code: 3,
          // The node's eth_call message, which names a verified contract's custom error (#18).
          message: `execution reverted: custom error 'NotOwner("${getAddress(other)}")' (Counter.guarded at ${getAddress(counter)})`,
          method_call: 'NotOwner(address who)',
          method_id: sel('NotOwner(address)'),
          parameters: [{ name: 'who', type: 'address', value: getAddress(other) }],
        },
      },
    ]);
    const failed = await apiPost(k, `/api/v2/smart-contracts/${counter}/query-read-method`, {
      method_id: sel('fail()'),
      args: [],
    });
    expect(failed.body[0].is_error).toBe(true);
    expect(failed.body[0].result.message).toBe('execution reverted: Counter: failed on purpose');
    expect(failed.body[0].result.code).toBe(3);
  });

  it('answers 4xx for a method id not in the ABI, arguments that do not encode, unverified addresses', async () => {
    const q = (body: Record<string, unknown>, a: Hex = token) =>
      apiPost(k, `/api/v2/smart-contracts/${a}/query-read-method`, body);
    expect(await q({ method_id: 'deadbeef', args: [] })).toEqual({
      status: 422,
      body: { message: "method_id deadbeef is not a function of the contract's ABI" },
    });
    const bad = await q({ method_id: sel('balanceOf(address)'), args: ['not an address'] });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/^arguments do not encode for balanceOf: /);
    expect((await q({ method_id: sel('balanceOf(address)'), args: [] })).body.message).toBe(
      'arguments do not encode for balanceOf: expected 1 argument, got 0',
    );
    expect((await q({ method_id: 12 })).status).toBe(422);
    expect(await q({ method_id: sel('count()'), args: [] }, other)).toEqual({
      status: 404,
      body: { message: 'Not found' },
    });
    expect(await api(k, `/api/v2/smart-contracts/${other}/methods-read`)).toEqual({
      status: 404,
      body: { message: 'Not found' },
    });
    expect(await api(k, '/api/v2/smart-contracts/0x12/methods-read')).toEqual({
      status: 422,
      body: { message: 'Invalid parameter(s)' },
    });
  });
});

describe('proxies', () => {
  const setCode = (a: string, code: string) => k.request({ method: 'hardhat_setCode', params: [a, code] });
  const setSlot = (a: string, slot: string, v: string) =>
    k.request({ method: 'hardhat_setStorageAt', params: [a, slot, v] });

  it('detects an EIP-1167 minimal proxy and reads through it', async () => {
    const runtime = `363d3d373d3d3d363d73${counter.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`;
    const hash = await d.send({ data: `0x3d602d80600a3d3981f3${runtime}` as Hex });
    const clone = (await d.receipt(hash)).contractAddress as Hex;
    expect(await k.request({ method: 'eth_getCode', params: [clone, 'latest'] })).toBe(`0x${runtime}`);
    const sc = await apiOk(k, `/api/v2/smart-contracts/${clone}`);
    expect(sc).toEqual({
      proxy_type: 'eip1167',
      implementations: [{ address_hash: getAddress(counter), name: 'Counter' }],
      conflicting_implementations: null,
      deployed_bytecode: `0x${runtime}`,
      creation_bytecode: `0x3d602d80600a3d3981f3${runtime}`,
      creation_status: 'success',
    });
    const read: Body[] = await apiOk(k, `/api/v2/smart-contracts/${clone}/methods-read-proxy`);
    // the clone's own storage: count is 0, owner unset (the immutable lives in the code: the implementation's)
    expect(read.find((m) => m.name === 'count')?.outputs[0].value).toBe('0');
    expect((await apiOk(k, `/api/v2/smart-contracts/${clone}/methods-write-proxy`)).map((m: Body) => m.name)).toContain(
      'add',
    );
    const q = await apiPost(k, `/api/v2/smart-contracts/${clone}/query-read-method`, {
      method_id: sel('owner()'),
      args: [],
      contract_type: 'proxy',
    });
    expect(q.body[0].result.output[0].value).toBe(getAddress(owner));
    const a = await apiOk(k, `/api/v2/addresses/${clone}`);
    expect(a.proxy_type).toBe('eip1167');
    expect(a.implementations).toEqual([{ address_hash: getAddress(counter), name: 'Counter' }]);
    // the implementation's ABI decodes calls to the proxy
    const inc = await d.send({ to: clone, data: `0x${sel('increment()')}` as Hex });
    expect((await apiOk(k, `/api/v2/transactions/${inc}`)).decoded_input.method_call).toBe('increment()');
  });

  it('detects EIP-1967 (slot and beacon) and EIP-1822 proxies', async () => {
    const p1 = '0x00000000000000000000000000000000000a1967';
    await setCode(p1, '0x00');
    await setSlot(p1, EIP1967_IMPL, word(counter));
    expect((await apiOk(k, `/api/v2/smart-contracts/${p1}`)).proxy_type).toBe('eip1967');
    expect((await apiOk(k, `/api/v2/smart-contracts/${p1}`)).implementations[0].name).toBe('Counter');

    // a beacon answering implementation() with the token: PUSH20 token, MSTORE at 0, RETURN 32 bytes
    const beacon = '0x00000000000000000000000000000000000bea c0'.replace(' ', '');
    await setCode(beacon, `0x73${token.slice(2)}60005260206000f3`);
    const p2 = '0x00000000000000000000000000000000000b1967';
    await setCode(p2, '0x00');
    await setSlot(p2, EIP1967_BEACON, word(beacon));
    const viaBeacon = await apiOk(k, `/api/v2/smart-contracts/${p2}`);
    expect(viaBeacon.proxy_type).toBe('eip1967');
    expect(viaBeacon.implementations).toEqual([{ address_hash: getAddress(token), name: 'Token' }]);

    const p3 = '0x00000000000000000000000000000000000a1822';
    await setCode(p3, '0x00');
    await setSlot(p3, PROXIABLE, word(token));
    expect((await apiOk(k, `/api/v2/smart-contracts/${p3}`)).proxy_type).toBe('eip1822');

    // a proxy nobody looked at: the block's callees are probed, its calls decode with Counter's ABI
    const p4 = '0x00000000000000000000000000000000000c1967';
    await setCode(p4, '0x00');
    await setSlot(p4, EIP1967_IMPL, word(counter));
    const viaProxy = await d.send({ to: p4 as Hex, data: `0x${sel('add(uint256)')}${word('0x03').slice(2)}` as Hex });
    let tx: Body = {};
    for (let i = 0; i < 100 && !tx.decoded_input; i++) {
      await new Promise((r) => setTimeout(r, 10));
      tx = await apiOk(k, `/api/v2/transactions/${viaProxy}`);
    }
    expect(tx.method).toBe('add');
    expect(tx.decoded_input.parameters).toEqual([{ name: 'amount', type: 'uint256', value: '3' }]);
    expect(tx.to.proxy_type).toBe('eip1967');
    expect(tx.to.implementations).toEqual([{ address_hash: getAddress(counter), name: 'Counter' }]);

    // not a proxy: the -proxy endpoints have nothing to show
    expect((await api(k, `/api/v2/smart-contracts/${counter}/methods-read-proxy`)).status).toBe(404);
  });
});

describe('/smart-contracts list, counters and detail', () => {
  it('lists verified contracts newest first, with search and language filter', async () => {
    const list = await apiOk(k, '/api/v2/smart-contracts');
    expect(list.next_page_params).toBeNull();
    expect(list.items.map((i: Body) => i.address.hash)).toEqual([getAddress(token), getAddress(counter)]);
    const t = list.items[0];
    expect(t.compiler_version).toMatch(/^v0\.8\.\d+\+commit\.[0-9a-f]{8}$/);
    expect(t.language).toBe('solidity');
    expect(t.has_constructor_args).toBe(true);
    expect(t.optimization_enabled).toBe(true);
    expect(t.tx_count).toBe(2);
    expect(t.address.is_verified).toBe(true);
    expect(t.verified_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect((await apiOk(k, '/api/v2/smart-contracts?q=count')).items.map((i: Body) => i.address.name)).toEqual([
      'Counter',
    ]);
    expect((await apiOk(k, '/api/v2/smart-contracts?filter=vyper')).items).toEqual([]);
    expect((await api(k, '/api/v2/smart-contracts?filter=cobol')).status).toBe(422);
  });

  it('sorts the list by transaction count or balance, either way', async () => {
    const asc = (await apiOk(k, '/api/v2/smart-contracts?sort=transactions_count&order=asc')).items;
    const desc = (await apiOk(k, '/api/v2/smart-contracts?sort=transactions_count&order=desc')).items;
    const counts = asc.map((i: Body) => i.transactions_count);
    expect(counts).toEqual([...counts].sort((x, y) => x - y));
    expect(desc.map((i: Body) => i.transactions_count)).toEqual([...counts].reverse());
    for (const i of asc) {
      const counters = await apiOk(k, `/api/v2/addresses/${i.address.hash}/counters`);
      expect(String(i.transactions_count)).toBe(counters.transactions_count);
    }
    const byBalance = (await apiOk(k, '/api/v2/smart-contracts?sort=balance&order=asc')).items;
    expect(byBalance).toHaveLength(asc.length);
    expect((await api(k, '/api/v2/smart-contracts?sort=name')).status).toBe(422);
  });

  it('counts contracts and verified contracts', async () => {
    const c = await apiOk(k, '/api/v2/smart-contracts/counters');
    // Counter, Token and the clone, plus the 4 system contracts of the dev genesis (EIP-4788, 2935,
    // 7002, 7251); the hardhat_setCode ones were never created
    expect(c.smart_contracts).toBe('7');
    expect(c.new_smart_contracts_24h).toBe('7');
    expect(c.verified_smart_contracts).toBe('2');
    expect(c.new_verified_smart_contracts_24h).toBe('2');
  });

  it('answers 404 for an address without code and 422 for a bad hash', async () => {
    expect(await api(k, `/api/v2/smart-contracts/${other}`)).toEqual({ status: 404, body: { message: 'Not found' } });
    expect((await api(k, '/api/v2/smart-contracts/0xzz')).status).toBe(422);
  });
});

describe("Blockscout 10.2.6's response schemas", () => {
  it('hold for decoded transactions and logs, the list, counters, details and proxies', async () => {
    const paths = [
      `/api/v2/transactions/${addTx}`,
      `/api/v2/transactions/${failTx}`,
      `/api/v2/transactions/${addTx}/logs`,
      '/api/v2/smart-contracts',
      '/api/v2/smart-contracts/counters',
      `/api/v2/smart-contracts/${counter}`,
      `/api/v2/smart-contracts/${token}`,
      '/api/v2/smart-contracts/0x00000000000000000000000000000000000a1967',
      `/api/v2/addresses/${counter}`,
      '/api/v2/addresses/0x00000000000000000000000000000000000a1967',
    ];
    for (const p of paths) expect([p, conformanceErrors(p, await apiOk(k, p))]).toEqual([p, []]);
  });
});
