// eth_getLogs through the log index (core logs/LogIndex: address and first-topic postings, hex
// cache): every answer is checked against a model of the logs the test itself emitted, across
// address arrays, topic OR-sets, ranges, evm_revert, hardhat_reset and a LevelDB restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogIndex, logIndexOf } from '@ashlar/core';
import { createNode, type NodeOptions } from 'ashlar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Kernel = Awaited<ReturnType<typeof createNode>>;
type Filter = {
  fromBlock?: string;
  toBlock?: string;
  blockHash?: string;
  address?: string | string[];
  topics?: unknown[];
};

// Runtime: LOG2 over no data with topic0 = calldata word 0 and topic1 = calldata word 1; init
// code returns it. Each call emits exactly the log the test asks for.
const INIT = '0x6b60203560003560006000a200600052600c6014f3';
const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const [X, Y, Z] = [word(0xe1), word(0xe2), word(0xe3)];
const [U1, U2] = [word(0xf1), word(0xf2)];
const NOBODY = '0x00000000000000000000000000000000000000ee';

/** A log the test emitted, with where the chain put it. */
interface Emitted {
  address: string;
  topics: string[];
  transactionHash: string;
  blockNumber: string;
  blockHash: string;
  blockTimestamp: string;
  transactionIndex: string;
  logIndex: string;
}

const tmp = mkdtempSync(join(tmpdir(), 'ashlar-log-index-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const rpc = <T>(k: Kernel, method: string, params: unknown[] = []) => k.request<T>({ method, params });

/** A node with two emitter contracts and helpers that mine blocks of chosen logs into a model. */
async function emitterChain(options: NodeOptions = {}) {
  const k = await createNode(options);
  const from = k.services.chain.accounts[0].address.toString();
  const deploy = async () => {
    const h = await rpc<string>(k, 'eth_sendTransaction', [{ from, data: INIT, gas: '0x100000' }]);
    return (await rpc<{ contractAddress: string }>(k, 'eth_getTransactionReceipt', [h])).contractAddress;
  };
  const emitters = [await deploy(), await deploy()];
  const model: Emitted[] = [];
  /** One block holding one transaction per entry (emitter index, topic0, topic1), in that order. */
  const block = async (...logs: [number, string, string][]) => {
    await rpc(k, 'evm_setAutomine', [false]);
    const hashes: string[] = [];
    for (const [e, t0, t1] of logs) {
      const data = `0x${t0.slice(2)}${t1.slice(2)}`;
      hashes.push(await rpc<string>(k, 'eth_sendTransaction', [{ from, to: emitters[e], data, gas: '0x10000' }]));
    }
    await rpc(k, 'evm_mine');
    await rpc(k, 'evm_setAutomine', [true]);
    const head = await rpc<{ number: string; hash: string; timestamp: string; transactions: string[] }>(
      k,
      'eth_getBlockByNumber',
      ['latest', false],
    );
    expect(head.transactions).toEqual(hashes);
    for (const [i, [e, t0, t1]] of logs.entries()) {
      model.push({
        address: emitters[e],
        topics: [t0, t1],
        transactionHash: hashes[i],
        blockNumber: head.number,
        blockHash: head.hash,
        blockTimestamp: head.timestamp,
        transactionIndex: `0x${i.toString(16)}`,
        logIndex: `0x${i.toString(16)}`,
      });
    }
  };
  const drop = (aboveBlock: bigint) => {
    for (let i = model.length - 1; i >= 0; i--) if (BigInt(model[i].blockNumber) > aboveBlock) model.splice(i, 1);
  };
  return { k, emitters, model, block, drop };
}

/** What eth_getLogs must answer for `f`, from the model (geth's rules: OR within a position, AND across). */
function expected(model: Emitted[], f: Filter, head: bigint) {
  const num = (v: string | undefined, dflt: bigint) => (v === undefined || v === 'latest' ? dflt : BigInt(v));
  const from = f.blockHash ? undefined : num(f.fromBlock, head);
  const to = f.blockHash ? undefined : num(f.toBlock, head);
  const addresses = (f.address === undefined ? [] : [f.address].flat()).map((a) => a.toLowerCase());
  return model
    .filter((l) => {
      if (f.blockHash !== undefined && l.blockHash !== f.blockHash) return false;
      const n = BigInt(l.blockNumber);
      if (from !== undefined && to !== undefined && (n < from || n > to)) return false;
      if (addresses.length > 0 && !addresses.includes(l.address.toLowerCase())) return false;
      return (f.topics ?? []).every((want, i) => {
        if (want === null) return true;
        const set = [want].flat() as string[];
        return set.length === 0 || (l.topics[i] !== undefined && set.includes(l.topics[i]));
      });
    })
    .map((l) => ({ ...l, address: l.address.toLowerCase(), data: '0x', removed: false }));
}

async function expectLogs(k: Kernel, model: Emitted[], f: Filter) {
  const head = BigInt(await rpc<string>(k, 'eth_blockNumber'));
  const got = await rpc<unknown[]>(k, 'eth_getLogs', [f]);
  expect(got, JSON.stringify(f)).toEqual(expected(model, f, head));
}

/** Filters over every shape the postings serve: addresses, first topics, both, neither, later positions. */
function filters(emitters: string[], head: number): Filter[] {
  const [a, b] = emitters;
  const q = (n: number) => `0x${Math.floor(n).toString(16)}`;
  return [
    { fromBlock: '0x0' },
    { fromBlock: '0x0', address: a },
    { fromBlock: '0x0', address: b.toUpperCase().replace('0X', '0x') },
    { fromBlock: '0x0', address: [a, b] },
    { fromBlock: '0x0', address: [NOBODY, b] },
    { fromBlock: '0x0', address: [NOBODY] },
    { fromBlock: '0x0', topics: [X] },
    { fromBlock: '0x0', topics: [[X, Y]] },
    { fromBlock: '0x0', topics: [[]] },
    { fromBlock: '0x0', topics: [null, U1] },
    { fromBlock: '0x0', topics: [[X, Z], [U2]] },
    { fromBlock: '0x0', topics: [X, null, U1] },
    { fromBlock: '0x0', address: b, topics: [Y] },
    {
      fromBlock: '0x0',
      address: [a, b],
      topics: [
        [Y, Z],
        [U1, U2],
      ],
    },
    { fromBlock: q(head / 3), toBlock: q((head * 2) / 3) },
    { fromBlock: q(head / 2), toBlock: q(head / 2), address: a },
    { fromBlock: q((head * 2) / 3), toBlock: 'latest', topics: [Z] },
  ];
}

const filtersAt = async (k: Kernel, emitters: string[]) =>
  filters(emitters, Number(await rpc<string>(k, 'eth_blockNumber')));

describe('eth_getLogs through the log index', () => {
  let chain: Awaited<ReturnType<typeof emitterChain>>;

  beforeAll(async () => {
    chain = await emitterChain();
    const { block } = chain;
    await block([0, X, U1]);
    await block([1, X, U2], [0, Y, U1], [1, Z, U1]);
    await block();
    await block([1, Y, U2]);
    await block([0, Z, U2], [0, X, U1]);
    await block([1, X, U1]);
    await block();
    await block([0, Y, U1], [1, Y, U1], [1, Z, U2]);
  });
  afterAll(() => chain.k.close());

  it('answers address arrays, topic OR-sets, wildcards and ranges as the model says', async () => {
    expect(logIndexOf(chain.k.services.chain).isReady).toBe(true);
    for (const f of await filtersAt(chain.k, chain.emitters)) await expectLogs(chain.k, chain.model, f);
  });

  it('answers a block by hash', async () => {
    for (const l of chain.model.slice(0, 5)) await expectLogs(chain.k, chain.model, { blockHash: l.blockHash });
  });

  it('forgets reverted blocks and serves the new blocks mined at their numbers (evm_revert)', async () => {
    const { k, block, model, drop, emitters } = chain;
    const id = await rpc<string>(k, 'evm_snapshot');
    const before = BigInt(await rpc<string>(k, 'eth_blockNumber'));
    await block([0, X, U2], [1, X, U2]);
    await block([1, Z, U1]);
    for (const f of await filtersAt(k, emitters)) await expectLogs(k, model, f);
    expect(await rpc<boolean>(k, 'evm_revert', [id])).toBe(true);
    drop(before);
    for (const f of await filtersAt(k, emitters)) await expectLogs(k, model, f);
    // Same numbers, other logs: the index must not answer the reverted ones.
    await block([1, Y, U1]);
    await block([0, Z, U2], [0, Z, U1]);
    for (const f of await filtersAt(k, emitters)) await expectLogs(k, model, f);
    // Followed block by block, revert included: never rebuilt from storage.
    expect(logIndexOf(k.services.chain).isReady).toBe(true);
    expect(logIndexOf(k.services.chain).scans).toBe(0);
  });

  it('is empty after hardhat_reset and follows the new chain', async () => {
    const fresh = await emitterChain();
    const { k, block, model } = fresh;
    await block([0, X, U1]);
    await block([1, Y, U2]);
    await rpc(k, 'hardhat_reset');
    model.splice(0);
    expect(await rpc(k, 'eth_getLogs', [{ fromBlock: '0x0' }])).toEqual([]);
    // The emitters went with the reset: deploy again (same sender and nonces, same addresses).
    const from = k.services.chain.accounts[0].address.toString();
    for (let i = 0; i < 2; i++) await rpc(k, 'eth_sendTransaction', [{ from, data: INIT, gas: '0x100000' }]);
    await block([1, Z, U1], [0, X, U2]);
    for (const f of await filtersAt(k, fresh.emitters)) await expectLogs(k, model, f);
    expect(logIndexOf(k.services.chain).scans).toBe(0);
    await k.close();
  });
});

describe('eth_getLogs limits through the log index', () => {
  it('answers up to logsMaxResults and names the limit past it', async () => {
    const c = await emitterChain({ rpc: { logsMaxResults: 3 } });
    await c.block([0, X, U1], [0, X, U1]);
    await c.block([0, X, U1]);
    await expectLogs(c.k, c.model, { fromBlock: '0x0', address: c.emitters[0] });
    await c.block([1, Y, U1], [0, X, U2]);
    await expectLogs(c.k, c.model, { fromBlock: '0x0', address: c.emitters[1] });
    const err = await rpc(c.k, 'eth_getLogs', [{ fromBlock: '0x0', address: c.emitters[0] }]).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/more than 3 results/);
    await c.k.close();
  });
});

describe('eth_getLogs through the log index on LevelDB', () => {
  it('is rebuilt from storage after a restart, then follows new blocks and reverts', async () => {
    const db = join(tmp, 'chain');
    const first = await emitterChain({ db });
    const { model, emitters } = first;
    await first.block([0, X, U1], [1, Y, U2]);
    await first.block();
    await first.block([1, X, U1]);
    await first.k.close();

    const k = await createNode({ db });
    const index = logIndexOf(k.services.chain);
    expect(index.isReady).toBe(false);
    for (const f of await filtersAt(k, emitters)) await expectLogs(k, model, f);
    expect(index.isReady).toBe(true);
    expect(index.scans).toBe(1);

    // New blocks after the rebuild, then a revert below them.
    const from = k.services.chain.accounts[0].address.toString();
    const head = BigInt(await rpc<string>(k, 'eth_blockNumber'));
    const h = await rpc<string>(k, 'eth_sendTransaction', [
      { from, to: emitters[0], data: `0x${Z.slice(2)}${U2.slice(2)}`, gas: '0x10000' },
    ]);
    const r = await rpc<{ blockNumber: string; blockHash: string }>(k, 'eth_getTransactionReceipt', [h]);
    const b = await rpc<{ timestamp: string }>(k, 'eth_getBlockByNumber', [r.blockNumber, false]);
    model.push({
      address: emitters[0],
      topics: [Z, U2],
      transactionHash: h,
      blockNumber: r.blockNumber,
      blockHash: r.blockHash,
      blockTimestamp: b.timestamp,
      transactionIndex: '0x0',
      logIndex: '0x0',
    });
    for (const f of await filtersAt(k, emitters)) await expectLogs(k, model, f);
    await k.services.chain.exclusive(() => k.services.chain.revertTo(head));
    model.pop();
    for (const f of await filtersAt(k, emitters)) await expectLogs(k, model, f);
    expect(index.isReady).toBe(true);
    expect(index.scans).toBe(1);
    await k.close();
  });
});

describe('LogIndex on a reopened chain', () => {
  it('builds in the background past buildInlineBlocks and reads evicted blocks back from storage', async () => {
    const db = join(tmp, 'direct');
    const first = await emitterChain({ db });
    const { model, emitters } = first;
    await first.block([0, X, U1], [1, Y, U2]);
    await first.block([1, X, U1]);
    await first.block([0, Z, U2]);
    await first.k.close();

    const k = await createNode({ db });
    const chain = k.services.chain;
    const head = chain.head.number;
    // Built in the background, holding one block's logs in hex: the rest are read from storage.
    const index = new LogIndex(chain, { buildInlineBlocks: 0, maxCachedLogs: 1 });
    expect(await index.candidates(0n, head, [], null)).toBeUndefined();
    expect(await index.build()).toBe(true);
    expect(index.scans).toBe(1);
    const found = await index.candidates(0n, head, [emitters[1].toLowerCase()], null);
    const blocks = [...new Set(model.filter((l) => l.address === emitters[1]).map((l) => Number(l.blockNumber)))];
    expect(found?.blocks).toEqual(blocks);
    for (const n of new Set(model.map((l) => Number(l.blockNumber)))) {
      const logs = await index.hexLogs(n);
      const want = model.filter((l) => Number(l.blockNumber) === n);
      expect(logs?.blockHash).toBe(want[0].blockHash);
      expect(logs?.blockTimestamp).toBe(want[0].blockTimestamp);
      expect(
        logs?.logs.map((l) => [l.address, l.topics, l.data, l.transactionHash, l.transactionIndex, l.logIndex]),
      ).toEqual(
        want.map((l) => [l.address.toLowerCase(), l.topics, '0x', l.transactionHash, l.transactionIndex, l.logIndex]),
      );
    }
    await k.close();
  });
});
