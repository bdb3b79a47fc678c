// Internal transactions and raw traces (issue #6): call frames captured while mining, stored with
// the block, indexed per address, served as Blockscout serves them. Every expectation below is
// worked out from test/contracts/Tracer.sol (addresses by EIP-161/EIP-1014, outputs by the ABI,
// the top frame's gas by the intrinsic-gas rule), not read back from our own output.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kernel, createKernel } from '@ashlar/core';
import { levelStorage } from '@ashlar/storage-level';
import { Interface, getAddress, getCreate2Address, getCreateAddress, keccak256, zeroPadValue } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceErrors } from './helpers/blockscout.js';
import { loadArtifact } from './helpers/contracts.js';
import {
  type Body,
  ChainDriver,
  type Hex,
  api,
  apiOk,
  explorerKernel,
  explorerPlugins,
} from './helpers/explorerChain.js';

const BENEFICIARY = '0x000000000000000000000000000000000000bEEF';
const tracerAbi = new Interface(loadArtifact('Tracer').abi);
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const salt = (n: number) => word(BigInt(n));
const lower = (a: string) => a.toLowerCase();

/** Intrinsic gas of a call (no access list): 21000 + 4 per zero and 16 per other calldata byte. */
function intrinsic(data: string): bigint {
  let gas = 21_000n;
  for (let i = 2; i < data.length; i += 2) gas += data.slice(i, i + 2) === '00' ? 4n : 16n;
  return gas;
}

interface Run {
  hash: Hex;
  data: string;
  doomed: string;
  doomed2: string;
}

/** Deploys Tracer (its constructor creates Callee) and runs it once per salt given. */
async function tracerActivity(d: ChainDriver, salts: number[]) {
  const from = d.accounts[0];
  const nonce = await d.kernel.request<Hex>({ method: 'eth_getTransactionCount', params: [from, 'latest'] });
  const deployed = await d.deploy('Tracer', [], from);
  const deploy = deployed.hash;
  // Checksummed, as the explorer writes addresses.
  const tracer = getAddress(deployed.address);
  expect(tracer).toBe(getCreateAddress({ from, nonce: Number(nonce) }));
  // A contract's nonce starts at 1 (EIP-161): Callee is its first creation, each run's Doomed the next.
  const callee = getCreateAddress({ from: tracer, nonce: 1 });
  const runs: Run[] = [];
  for (const [i, s] of salts.entries()) {
    const data = tracerAbi.encodeFunctionData('run', [BENEFICIARY, salt(s)]);
    const hash = await d.send({ to: tracer as Hex, value: 3n, data: data as Hex, gas: 1_000_000n });
    runs.push({
      hash,
      data,
      // Each run creates with CREATE (nonce 2, 3, …) then CREATE2; CREATE2 bumps the nonce too.
      doomed: getCreateAddress({ from: tracer, nonce: 2 + 2 * i }),
      doomed2: getCreate2Address(tracer, salt(s), keccak256(loadArtifact('Doomed').bytecode)),
    });
  }
  return { tracer, callee, deploy, runs };
}

describe('internal transactions of a mined block', () => {
  let k: Kernel;
  let t: Awaited<ReturnType<typeof tracerActivity>>;
  let run: Run;

  beforeAll(async () => {
    k = await explorerKernel();
    t = await tracerActivity(new ChainDriver(k), [1]);
    run = t.runs[0];
  });
  afterAll(() => k.close());

  it('lists a contract creation with its own CREATE (index 0) and the contract its constructor made', async () => {
    const body = await apiOk(k, `/api/v2/transactions/${t.deploy}/internal-transactions`);
    expect(body.next_page_params).toBeNull();
    expect(
      body.items.map((i: Body) => [i.index, i.type, i.from.hash, i.to, i.created_contract?.hash, i.value, i.success]),
    ).toEqual([
      [0, 'create', getAddress(new ChainDriver(k).accounts[0]), null, t.tracer, '0', true],
      [1, 'create', t.tracer, null, t.callee, '0', true],
    ]);
    // Callee was made by Tracer: a contract, with Tracer as creator and the deployment as creation tx.
    const callee = await apiOk(k, `/api/v2/addresses/${t.callee}`);
    expect(callee.is_contract).toBe(true);
    expect(callee.creator_address_hash).toBe(t.tracer);
    expect(callee.creation_tx_hash).toBe(t.deploy);
    const tx = await apiOk(k, `/api/v2/transactions/${t.deploy}`);
    expect(tx.has_error_in_internal_txs).toBe(false);
  });

  it('lists every frame of a call below its top one, depth-first', async () => {
    const body = await apiOk(k, `/api/v2/transactions/${run.hash}/internal-transactions`);
    expect(body.next_page_params).toBeNull();
    const rows = body.items.map((i: Body) => [
      i.index,
      i.type,
      i.from.hash,
      i.to?.hash ?? null,
      i.created_contract?.hash ?? null,
      i.value,
      i.success,
      i.error,
    ]);
    const { tracer, callee } = t;
    expect(rows).toEqual([
      [1, 'call', tracer, callee, null, '1', true, null],
      [2, 'staticcall', tracer, callee, null, '0', true, null],
      // DELEGATECALL: the delegating contract calls the code's address, with the value it was given.
      [3, 'delegatecall', tracer, callee, null, '3', true, null],
      [4, 'call', tracer, callee, null, '0', false, 'Reverted'],
      [5, 'create', tracer, null, run.doomed, '2', true, null],
      [6, 'call', tracer, run.doomed, null, '0', true, null],
      [7, 'selfdestruct', run.doomed, BENEFICIARY, null, '2', true, null],
      [8, 'create2', tracer, null, run.doomed2, '0', true, null],
    ]);
    const block = Number(
      (await k.request<Body>({ method: 'eth_getTransactionReceipt', params: [run.hash] })).blockNumber,
    );
    for (const [n, item] of body.items.entries()) {
      expect(item).toMatchObject({ block, block_number: block, transaction_hash: run.hash, transaction_index: 0 });
      expect(item.block_index).toBe(n + 1);
      if (item.type === 'selfdestruct') expect(item.gas_limit).toBeNull();
      else expect(item.gas_limit).toMatch(/^[1-9]\d*$/);
    }
    // Each call gets at most 63/64 of what its caller has left: less than the top frame's gas.
    const top = 1_000_000n - intrinsic(run.data);
    for (const item of body.items) if (item.gas_limit) expect(BigInt(item.gas_limit) < top).toBe(true);
    expect(conformanceErrors(`/api/v2/transactions/${run.hash}/internal-transactions`, body)).toEqual([]);

    const tx = await apiOk(k, `/api/v2/transactions/${run.hash}`);
    expect(tx.has_error_in_internal_txs).toBe(true);
    expect(tx.result).toBe('success');
    expect(tx.status).toBe('ok');
  });

  it('serves the raw trace in Parity format, top frame included', async () => {
    const trace = await apiOk(k, `/api/v2/transactions/${run.hash}/raw-trace`);
    const tracer = lower(t.tracer);
    const callee = lower(t.callee);
    const doomed = lower(run.doomed);
    const doomedArt = loadArtifact('Doomed');
    const gasOf = (i: number) => trace[i].action.gas;
    expect(trace).toHaveLength(9);
    // Top frame: the transaction's gas less the intrinsic gas; returns CREATE2's address.
    expect(trace[0]).toEqual({
      type: 'call',
      action: {
        callType: 'call',
        from: lower(new ChainDriver(k).accounts[0]),
        to: tracer,
        input: run.data,
        gas: `0x${(1_000_000n - intrinsic(run.data)).toString(16)}`,
        value: '0x3',
      },
      result: { gasUsed: trace[0].result.gasUsed, output: zeroPadValue(lower(run.doomed2), 32) },
      traceAddress: [],
      subtraces: 7,
    });
    const set = (v: bigint) => `0x60fe47b1${word(v).slice(2)}`;
    expect(trace.slice(1)).toEqual([
      {
        type: 'call',
        action: { callType: 'call', from: tracer, to: callee, input: set(7n), gas: gasOf(1), value: '0x1' },
        result: { gasUsed: trace[1].result.gasUsed, output: word(14n) },
        traceAddress: [0],
        subtraces: 0,
      },
      {
        type: 'call',
        action: { callType: 'staticcall', from: tracer, to: callee, input: '0x6d4ce63c', gas: gasOf(2), value: '0x0' },
        result: { gasUsed: trace[2].result.gasUsed, output: word(7n) },
        traceAddress: [1],
        subtraces: 0,
      },
      {
        type: 'call',
        action: { callType: 'delegatecall', from: tracer, to: callee, input: set(9n), gas: gasOf(3), value: '0x3' },
        result: { gasUsed: trace[3].result.gasUsed, output: word(18n) },
        traceAddress: [2],
        subtraces: 0,
      },
      {
        type: 'call',
        action: { callType: 'call', from: tracer, to: callee, input: '0xa9cc4718', gas: gasOf(4), value: '0x0' },
        error: 'Reverted',
        traceAddress: [3],
        subtraces: 0,
      },
      {
        type: 'create',
        action: { from: tracer, gas: gasOf(5), init: doomedArt.bytecode, value: '0x2' },
        result: { address: doomed, code: doomedArt.deployedBytecode, gasUsed: trace[5].result.gasUsed },
        traceAddress: [4],
        subtraces: 0,
      },
      {
        type: 'call',
        action: {
          callType: 'call',
          from: tracer,
          to: doomed,
          input: `0x00f55d9d${zeroPadValue(lower(BENEFICIARY), 32).slice(2)}`,
          gas: gasOf(6),
          value: '0x0',
        },
        result: { gasUsed: trace[6].result.gasUsed, output: '0x' },
        traceAddress: [5],
        subtraces: 1,
      },
      {
        type: 'suicide',
        action: { address: doomed, balance: '0x2', refundAddress: lower(BENEFICIARY) },
        traceAddress: [5, 0],
        subtraces: 0,
      },
      {
        type: 'create2',
        action: { from: tracer, gas: gasOf(8), init: doomedArt.bytecode, value: '0x0' },
        result: { address: lower(run.doomed2), code: doomedArt.deployedBytecode, gasUsed: trace[8].result.gasUsed },
        traceAddress: [6],
        subtraces: 0,
      },
    ]);
    // Gas figures are hex quantities, and a frame uses no more than it was given.
    for (const e of trace) {
      if (e.result) expect(BigInt(e.result.gasUsed) <= BigInt(e.action.gas)).toBe(true);
      if (e.action.gas) expect(e.action.gas).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
    }
  });

  it('lists an address’s internal transactions newest first, with filter=from|to', async () => {
    const path = (filter?: string) =>
      `/api/v2/addresses/${t.tracer}/internal-transactions${filter ? `?filter=${filter}` : ''}`;
    const key = (i: Body) => `${i.transaction_hash}:${i.index}`;
    const all = await apiOk(k, path());
    expect(conformanceErrors(path(), all)).toEqual([]);
    // The run (newest) from Tracer: 8, 6, 5, 4, 3, 2, 1; then the deployment: Callee's creation (1), Tracer's own (0).
    expect(all.items.map(key)).toEqual([
      ...[8, 6, 5, 4, 3, 2, 1].map((i) => `${run.hash}:${i}`),
      `${t.deploy}:1`,
      `${t.deploy}:0`,
    ]);
    expect((await apiOk(k, path('from'))).items.map(key)).toEqual(all.items.slice(0, 8).map(key));
    expect((await apiOk(k, path('to'))).items.map(key)).toEqual([`${t.deploy}:0`]);
    // The beneficiary only received a self-destruct's balance: an internal transaction to it, and a coin-balance change.
    const b = await apiOk(k, `/api/v2/addresses/${BENEFICIARY}/internal-transactions`);
    expect(b.items.map((i: Body) => [i.type, i.value, i.to.hash])).toEqual([['selfdestruct', '2', BENEFICIARY]]);
    expect((await apiOk(k, `/api/v2/addresses/${BENEFICIARY}/internal-transactions?filter=from`)).items).toEqual([]);
    const history = await apiOk(k, `/api/v2/addresses/${BENEFICIARY}/coin-balance-history`);
    expect(history.items.map((h: Body) => [h.transaction_hash, h.delta, h.value])).toEqual([[run.hash, '2', '2']]);
  });

  it('lists a block’s internal transactions and the chain’s, newest first', async () => {
    const receipt = await k.request<Body>({ method: 'eth_getTransactionReceipt', params: [run.hash] });
    const block = await apiOk(k, `/api/v2/blocks/${Number(receipt.blockNumber)}/internal-transactions`);
    expect(block.items.map((i: Body) => i.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(conformanceErrors(`/api/v2/blocks/${Number(receipt.blockNumber)}/internal-transactions`, block)).toEqual([]);
    const all = await apiOk(k, '/api/v2/internal-transactions');
    expect(conformanceErrors('/api/v2/internal-transactions', all)).toEqual([]);
    expect(all.items.map((i: Body) => `${i.transaction_hash}:${i.index}`)).toEqual([
      ...[8, 7, 6, 5, 4, 3, 2, 1].map((i) => `${run.hash}:${i}`),
      `${t.deploy}:1`,
      `${t.deploy}:0`,
    ]);
  });

  it('counts a block’s internal transactions on the block and in lists, as debug_traceTransaction’s callTracer shows', async () => {
    type Call = { type: string; calls?: Call[] };
    // Every frame below the top one, plus the top one when it is a creation (Blockscout's list).
    const below = (c: Call): number => (c.calls ?? []).reduce((n, x) => n + 1 + below(x), 0);
    const listedOf = (top: Call) => below(top) + (top.type.startsWith('CREATE') ? 1 : 0);
    for (const hash of [t.deploy, run.hash]) {
      const receipt = await k.request<Body>({ method: 'eth_getTransactionReceipt', params: [hash] });
      const trace = await k.request<Call>({
        method: 'debug_traceTransaction',
        params: [hash, { tracer: 'callTracer' }],
      });
      const n = Number(receipt.blockNumber);
      const block = await apiOk(k, `/api/v2/blocks/${n}`);
      expect(block.internal_transactions_count).toBe(listedOf(trace));
      const list = await apiOk(k, `/api/v2/blocks?block_number=${n + 1}&items_count=50`);
      expect(list.items[0].height).toBe(n);
      expect(list.items[0].internal_transactions_count).toBe(listedOf(trace));
    }
    // The run's 8 frames below its top call (see 'lists every frame of a call'); a plain transfer has none.
    const receipt = await k.request<Body>({ method: 'eth_getTransactionReceipt', params: [run.hash] });
    expect((await apiOk(k, `/api/v2/blocks/${Number(receipt.blockNumber)}`)).internal_transactions_count).toBe(8);
    expect((await apiOk(k, '/api/v2/blocks/0')).internal_transactions_count).toBe(0);
  });

  it('answers 404 for an unknown transaction and nothing for a plain transfer', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    expect((await api(k, `/api/v2/transactions/${unknown}/internal-transactions`)).status).toBe(404);
    expect((await api(k, `/api/v2/transactions/${unknown}/raw-trace`)).status).toBe(404);
    const d = new ChainDriver(k);
    // Gas 21000: nothing left for the top frame once the intrinsic gas is paid.
    const plain = await d.send({ to: d.accounts[1], value: 5n, gas: 21_000n });
    expect(await apiOk(k, `/api/v2/transactions/${plain}/internal-transactions`)).toEqual({
      items: [],
      next_page_params: null,
    });
    const trace = await apiOk(k, `/api/v2/transactions/${plain}/raw-trace`);
    expect(trace).toEqual([
      {
        type: 'call',
        action: {
          callType: 'call',
          from: lower(d.accounts[0]),
          to: lower(d.accounts[1]),
          input: '0x',
          gas: '0x0',
          value: '0x5',
        },
        result: { gasUsed: '0x0', output: '0x' },
        traceAddress: [],
        subtraces: 0,
      },
    ]);
  });
});

describe('internal transactions across pages, reverts and restarts', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('pages the chain’s list by block_number, transaction_index, index', async () => {
    const k = await explorerKernel();
    try {
      const t = await tracerActivity(new ChainDriver(k), [1, 2, 3, 4, 5, 6, 7]);
      const seen: string[] = [];
      let path = '/api/v2/internal-transactions';
      const pages: Body[] = [];
      for (;;) {
        const page = await apiOk(k, path);
        pages.push(page);
        seen.push(...page.items.map((i: Body) => `${i.transaction_hash}:${i.index}`));
        if (!page.next_page_params) break;
        path = `/api/v2/internal-transactions?${new URLSearchParams(page.next_page_params).toString()}`;
      }
      // 2 frames of the deployment and 8 of each of 7 runs.
      expect(pages.map((p) => p.items.length)).toEqual([50, 8]);
      const last = pages[0].items[49];
      expect(pages[0].next_page_params).toEqual({
        block_number: last.block_number,
        transaction_index: 0,
        index: last.index,
        items_count: 50,
      });
      expect(new Set(seen).size).toBe(58);
      expect(seen.slice(-2)).toEqual([`${t.deploy}:1`, `${t.deploy}:0`]);
    } finally {
      await k.close();
    }
  });

  it('drops the frames and index rows of blocks evm_revert removes', async () => {
    const k = await explorerKernel();
    try {
      const d = new ChainDriver(k);
      const first = await tracerActivity(d, [1]);
      const before = await apiOk(k, '/api/v2/internal-transactions');
      const snap = await k.request({ method: 'evm_snapshot', params: [] });
      const data = tracerAbi.encodeFunctionData('run', [BENEFICIARY, salt(2)]);
      const second = await d.send({ to: first.tracer as Hex, value: 3n, data: data as Hex, gas: 1_000_000n });
      const n = k.chain.head.number;
      expect((await apiOk(k, '/api/v2/internal-transactions')).items).toHaveLength(before.items.length + 8);
      expect(await k.chain.store.getCallFrames(k.chain.head)).toHaveLength(1);
      expect(await k.request({ method: 'evm_revert', params: [snap] })).toBe(true);
      expect(await apiOk(k, '/api/v2/internal-transactions')).toEqual(before);
      expect((await api(k, `/api/v2/transactions/${second}/internal-transactions`)).status).toBe(404);
      const beneficiary = await apiOk(k, `/api/v2/addresses/${BENEFICIARY}/internal-transactions`);
      expect(beneficiary.items.map((i: Body) => i.transaction_hash)).toEqual([first.runs[0].hash]);
      const key = new Uint8Array(8);
      new DataView(key.buffer).setBigUint64(0, n);
      expect(await k.chain.store.read(k.chain.store.callFrames, key)).toBeUndefined();
    } finally {
      await k.close();
    }
  });

  it('serves them again after a LevelDB restart', async () => {
    const path = mkdtempSync(join(tmpdir(), 'ashlar-internal-'));
    dirs.push(path);
    const open = () => explorerKernel({ storage: levelStorage({ path }) });
    const k1 = await open();
    const t = await tracerActivity(new ChainDriver(k1), [1]);
    const urls = [
      `/api/v2/transactions/${t.runs[0].hash}/internal-transactions`,
      `/api/v2/transactions/${t.runs[0].hash}/raw-trace`,
      `/api/v2/addresses/${t.tracer}/internal-transactions`,
      `/api/v2/transactions/${t.runs[0].hash}`,
    ];
    const live: Body[] = [];
    for (const u of urls) live.push(await apiOk(k1, u));
    await k1.close();
    const k2 = await open();
    try {
      for (const [i, u] of urls.entries()) {
        const again = await apiOk(k2, u);
        // Confirmations move with the head; everything else is as served before the restart.
        if (i === 3) expect({ ...again, confirmations: 0 }).toEqual({ ...live[i], confirmations: 0 });
        else expect(again).toEqual(live[i]);
      }
    } finally {
      await k2.close();
    }
  });
});

describe('a chain mined with call frames off', () => {
  it('stores none, and replays the block for a transaction’s internal transactions and raw trace', async () => {
    const on = await explorerKernel();
    const off = await createKernel({ chain: { callFrames: false }, plugins: explorerPlugins() });
    try {
      const a = await tracerActivity(new ChainDriver(on), [1]);
      const b = await tracerActivity(new ChainDriver(off), [1]);
      expect(b.tracer).toBe(a.tracer);
      expect(await off.chain.store.getCallFrames(off.chain.head)).toBeUndefined();
      for (const p of ['internal-transactions', 'raw-trace']) {
        const want = await apiOk(on, `/api/v2/transactions/${a.runs[0].hash}/${p}`);
        const got = await apiOk(off, `/api/v2/transactions/${b.runs[0].hash}/${p}`);
        // Same transactions on the same state, so the same frames; block timestamps differ, and
        // without indexed frames the contracts Tracer created are not known as contracts.
        const strip = (x: Body) =>
          JSON.parse(JSON.stringify(x, (key, v) => (key === 'timestamp' || key === 'is_contract' ? undefined : v)));
        expect(strip(got)).toEqual(strip(want));
      }
      // Only the index lists need frames kept at mining time.
      expect((await apiOk(off, '/api/v2/internal-transactions')).items).toEqual([]);
      // Nor is a block's count replayed: unknown without frames, as Blockscout before its indexing.
      expect((await apiOk(off, '/api/v2/blocks')).items[0].internal_transactions_count).toBeNull();
    } finally {
      await on.close();
      await off.close();
    }
  });
});
