/**
 * Dev-method parameter shapes (docs/param-shapes.md): every shape that Hardhat 2.29 or Anvil 1.7.1
 * accepts for a method, Ashlar accepts too (each method serves both spellings, so the union).
 * The table says which peer accepts each shape, and is checked against the real peers on every
 * run (Hardhat in process, Anvil spawned), so it cannot drift from what they do. Then the
 * shapes real clients send (Foundry's `cast rpc` plain numbers, ethers' `provider.send`) are
 * checked for their effect on Ashlar's chain, not only for being accepted.
 */
import { JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, httpPeer, startAnvil, startHardhat } from './helpers/devPeers.js';
import { type TestNode, startNode } from './helpers/node.js';

const A = '0x00000000000000000000000000000000000000a1';
const WORD = `0x${'00'.repeat(31)}2a`;
const HASH = `0x${'11'.repeat(32)}`;

/** Per-chain helpers for parameters that depend on the chain's state. */
interface Env {
  /** A timestamp after the head's (each call later than the one before). */
  future(): Promise<number>;
  /** A fresh snapshot id, as the chain answered it (a hex string). */
  snapshot(): Promise<string>;
  /** An ever-growing nonce for A (Hardhat refuses to lower one). */
  nonce(): number;
}

type Params = unknown[] | ((env: Env) => Promise<unknown[]> | unknown[]);

/** Which peer accepts the shape (undefined: the peer has no method of this name). */
interface Row {
  method: string;
  params: Params;
  hardhat?: boolean;
  anvil?: boolean;
  /** Ashlar's answer: accepted when either peer accepts; may accept more (documented). */
  ashlar: boolean;
  why?: string;
}

/** `both(ok)`: the method exists on both peers, with the same verdict. */
const row = (
  method: string,
  params: Params,
  peers: { hardhat?: boolean; anvil?: boolean },
  ashlar?: boolean,
  why?: string,
): Row => ({
  method,
  params,
  ...peers,
  ashlar: ashlar ?? (peers.hardhat === true || peers.anvil === true),
  why,
});
const both = (ok: boolean) => ({ hardhat: ok, anvil: ok });
const hex = (n: number | bigint) => `0x${n.toString(16)}`;

const ROWS: Row[] = [
  // evm_mine: a timestamp as number, hex or decimal (both); Anvil's and Ganache's object form and null.
  row('evm_mine', [], both(true)),
  row('evm_mine', async (e) => [await e.future()], both(true)),
  row('evm_mine', async (e) => [hex(await e.future())], both(true)),
  row('evm_mine', async (e) => [String(await e.future())], both(true)),
  row('evm_mine', async (e) => [{ timestamp: await e.future() }], { hardhat: false, anvil: true }),
  row('evm_mine', async (e) => [{ timestamp: hex(await e.future()) }], { hardhat: false, anvil: true }),
  row('evm_mine', async (e) => [{ timestamp: await e.future(), blocks: 2 }], { hardhat: false, anvil: true }),
  row('evm_mine', [null], { hardhat: false, anvil: true }),
  row('evm_mine', ['soon'], both(false)),
  row('evm_mine', [true], both(false)),
  // hardhat_mine / anvil_mine: count and interval as numbers (cast, ethers), hex (viem), decimal.
  row('hardhat_mine', [], { hardhat: true }),
  row('hardhat_mine', [5], { hardhat: true }),
  row('hardhat_mine', ['0x5'], { hardhat: true }),
  row('hardhat_mine', ['0x05'], { hardhat: true }),
  row('hardhat_mine', ['5'], { hardhat: true }),
  row('hardhat_mine', [5, 12], { hardhat: true }),
  row('hardhat_mine', ['0x5', '0xc'], { hardhat: true }),
  row('hardhat_mine', ['0x5', 12], { hardhat: true }),
  row('hardhat_mine', [null, null], { hardhat: true }),
  row('hardhat_mine', ['ten'], { hardhat: false }),
  row('anvil_mine', [5], { anvil: true }, undefined, 'cast rpc anvil_mine 5'),
  row('anvil_mine', [2, 12], { anvil: true }, undefined, 'cast rpc anvil_mine 2 12'),
  row('anvil_mine', ['0x2', '0xc'], { anvil: true }),
  row('anvil_mine', ['5'], { anvil: true }),
  row('anvil_mine', ['ten'], { anvil: false }),
  // time
  row('evm_increaseTime', [3600], both(true)),
  row('evm_increaseTime', ['0xe10'], both(true)),
  row('evm_increaseTime', ['0x0e10'], both(true)),
  row('evm_increaseTime', ['3600'], both(true)),
  row('evm_increaseTime', ['soon'], both(false)),
  row('evm_setNextBlockTimestamp', async (e) => [await e.future()], both(true)),
  row('evm_setNextBlockTimestamp', async (e) => [hex(await e.future())], both(true)),
  row('evm_setNextBlockTimestamp', async (e) => [String(await e.future())], both(true)),
  row('evm_setNextBlockTimestamp', ['soon'], both(false)),
  row('anvil_setNextBlockTimestamp', async (e) => [await e.future()], { anvil: true }),
  // state edits: Hardhat takes hex quantities only; Anvil also numbers and decimal strings.
  row('hardhat_setBalance', [A, '0x1000'], both(true)),
  row('hardhat_setBalance', [A, '0x01000'], both(true)),
  row('hardhat_setBalance', [A, '0x'], both(true)),
  row('hardhat_setBalance', [A, 4096], { hardhat: false, anvil: true }),
  row('hardhat_setBalance', [A, '4096'], { hardhat: false, anvil: true }),
  row('hardhat_setBalance', [A, 'lots'], both(false)),
  row('anvil_setBalance', [A, 4096], { anvil: true }),
  row('hardhat_setNonce', (e) => [A, hex(e.nonce())], both(true)),
  row('hardhat_setNonce', (e) => [A, `0x0${e.nonce().toString(16)}`], both(true)),
  row('hardhat_setNonce', (e) => [A, e.nonce()], { hardhat: false, anvil: true }),
  row('hardhat_setNonce', (e) => [A, String(e.nonce())], { hardhat: false, anvil: true }),
  row('hardhat_setStorageAt', [A, '0x0', WORD], both(true)),
  row('hardhat_setStorageAt', [A, '0x00', WORD], both(true)),
  row('hardhat_setStorageAt', [A, 0, WORD], { hardhat: false, anvil: true }),
  row('hardhat_setStorageAt', [A, '1', WORD], { hardhat: false, anvil: true }),
  row('hardhat_setStorageAt', [A, '0x1', '0x01'], both(false), false, 'the value must be 32 bytes'),
  row('anvil_setStorageAt', [A, 2, WORD], { anvil: true }),
  row('hardhat_setCode', [A, '0x6000'], both(true)),
  row('hardhat_setCode', [A, '0x'], both(true)),
  // miner settings
  row('evm_setBlockGasLimit', ['0x1c9c380'], both(true)),
  row('evm_setBlockGasLimit', [30000000], both(true)),
  row('evm_setBlockGasLimit', ['30000000'], both(true)),
  row('hardhat_setNextBlockBaseFeePerGas', ['0x1'], { hardhat: true }),
  row('hardhat_setNextBlockBaseFeePerGas', [1], { hardhat: true }),
  row('hardhat_setNextBlockBaseFeePerGas', ['1'], { hardhat: true }),
  row('anvil_setNextBlockBaseFeePerGas', [1], { anvil: true }),
  row('anvil_setNextBlockBaseFeePerGas', ['0x1'], { anvil: true }),
  row('evm_setIntervalMining', [0], both(true)),
  row('evm_setIntervalMining', ['0x0'], both(false), true, 'Ashlar reads every dev integer the same way'),
  row('evm_setAutomine', [true], both(true)),
  row('evm_setAutomine', ['true'], both(false)),
  row('evm_setAutomine', [1], both(false)),
  row('hardhat_setCoinbase', [A], { hardhat: true }),
  row('anvil_setCoinbase', [A], { anvil: true }),
  row('hardhat_setLoggingEnabled', [false], { hardhat: true }),
  row('hardhat_dropTransaction', [HASH], { hardhat: true }),
  row('anvil_dropTransaction', [HASH], { anvil: true }),
  row('hardhat_impersonateAccount', [A], { hardhat: true }),
  row('hardhat_stopImpersonatingAccount', [A], { hardhat: true }),
  row('anvil_impersonateAccount', [A], { anvil: true }),
  row('anvil_autoImpersonateAccount', [false], { anvil: true }),
  // snapshots: the id as the chain gave it, as a number, as a decimal string
  row('evm_revert', async (e) => [await e.snapshot()], both(true)),
  row('evm_revert', async (e) => [Number(await e.snapshot())], both(true)),
  row('evm_revert', async (e) => [String(Number(await e.snapshot()))], both(true)),
  row('evm_revert', ['one'], both(false)),
  // block fields of the blocks to come (last: the interval stays on until removed)
  row('hardhat_setPrevRandao', [HASH], { hardhat: true }),
  row('hardhat_setPrevRandao', [5], { hardhat: false }),
  row('anvil_setBlockTimestampInterval', [12], { anvil: true }),
  row(
    'anvil_setBlockTimestampInterval',
    ['0xc'],
    { anvil: false },
    true,
    'Ashlar reads every dev integer the same way',
  ),
  row('anvil_removeBlockTimestampInterval', [], { anvil: true }),
  row('anvil_setIntervalMining', [0], { anvil: true }),
  row('anvil_setIntervalMining', ['0x0'], { anvil: false }, true, 'Ashlar reads every dev integer the same way'),
  // back to genesis (last): no argument, an empty options object, viem's reset() without a fork
  row('hardhat_reset', [], { hardhat: true }),
  row('hardhat_reset', [{}], { hardhat: true }),
  row(
    'hardhat_reset',
    [{ forking: { blockNumber: null } }],
    { hardhat: false },
    true,
    "viem's reset() on a chain without a fork",
  ),
  row('anvil_reset', [], { anvil: true }),
  row(
    'anvil_reset',
    [{ forking: { blockNumber: null } }],
    { anvil: false },
    true,
    "viem's reset() on a chain without a fork",
  ),
];

function envFor(peer: Peer): Env {
  let nonce = 0;
  let last = 0;
  return {
    async future() {
      const head = await peer.call('eth_getBlockByNumber', ['latest', false]);
      const ts = Number((head.result as { timestamp: string }).timestamp);
      last = Math.max(last, ts) + 1000;
      return last;
    },
    async snapshot() {
      return (await peer.call('evm_snapshot')).result as string;
    },
    nonce: () => ++nonce,
  };
}

/** Runs the table on a chain: each row's answer, in order. */
async function runTable(peer: Peer, only: (r: Row) => boolean) {
  const env = envFor(peer);
  const out: { row: Row; answer: Awaited<ReturnType<Peer['call']>> }[] = [];
  for (const r of ROWS) {
    if (!only(r)) continue;
    const params = typeof r.params === 'function' ? await r.params(env) : r.params;
    out.push({ row: r, answer: await peer.call(r.method, params) });
  }
  return out;
}

const label = (r: Row) =>
  `${r.method}(${typeof r.params === 'function' ? String(r.params).slice(0, 60) : JSON.stringify(r.params)})`;

describe('dev-method shapes, checked against Hardhat and Anvil', () => {
  let node: TestNode;
  let peers: Peer[] = [];

  beforeAll(async () => {
    node = await startNode();
    peers = [await startHardhat(), await startAnvil()];
  }, 60_000);
  afterAll(async () => {
    await Promise.all(peers.map((p) => p.close()));
    await node?.close();
  });

  it('the table is consistent: Ashlar accepts whatever a peer accepts', () => {
    for (const r of ROWS) if (r.hardhat || r.anvil) expect(r.ashlar, label(r)).toBe(true);
  });

  for (const name of ['hardhat', 'anvil'] as const) {
    it(`${name} accepts and rejects what the table says`, async () => {
      const peer = peers.find((p) => p.name === name) as Peer;
      const answers = await runTable(peer, (r) => r[name] !== undefined);
      const wrong = answers
        .filter(({ row, answer }) => (answer.error === undefined) !== row[name])
        .map(({ row, answer }) => `${label(row)}: ${answer.error ? answer.error.message : 'accepted'}`);
      expect(wrong).toEqual([]);
    }, 60_000);
  }

  it('Ashlar accepts what the table says, and rejects the rest with -32602 naming the argument', async () => {
    const answers = await runTable(
      httpPeer('ashlar', node.url, async () => undefined),
      () => true,
    );
    const wrong = answers
      .filter(({ row, answer }) => {
        if (row.ashlar) return answer.error !== undefined;
        return answer.error?.code !== -32602 || !/^invalid argument \d \(\w+\): /.test(answer.error.message);
      })
      .map(
        ({ row, answer }) =>
          `${label(row)}: ${answer.error ? `${answer.error.code} ${answer.error.message}` : 'accepted'}`,
      );
    expect(wrong).toEqual([]);
  }, 60_000);
});

describe('the shapes clients send do what they say on Ashlar', () => {
  let node: TestNode;
  let provider: JsonRpcProvider;
  type Block = { number: string; timestamp: string; gasLimit: string; baseFeePerGas: string };
  const block = (tag: string | number) =>
    provider.send('eth_getBlockByNumber', [typeof tag === 'number' ? hex(tag) : tag, false]) as Promise<Block>;
  const head = async () => {
    const b = await block('latest');
    return { number: Number(b.number), timestamp: Number(b.timestamp) };
  };

  beforeAll(async () => {
    node = await startNode();
    provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true, batchMaxCount: 1 });
  });
  afterAll(async () => {
    provider.destroy();
    await node.close();
  });

  it('cast rpc anvil_mine 2 12 / hardhat_mine 5: plain numbers are a count and an interval', async () => {
    const before = await head();
    await provider.send('anvil_mine', [2, 12]);
    const after = await head();
    expect(after.number).toBe(before.number + 2);
    expect(Number((await block(after.number)).timestamp) - Number((await block(after.number - 1)).timestamp)).toBe(12);
    await provider.send('hardhat_mine', [5]);
    expect((await head()).number).toBe(after.number + 5);
    await provider.send('hardhat_mine', ['3']);
    expect((await head()).number).toBe(after.number + 8);
  });

  it('evm_mine with a number, a decimal string, { timestamp } and { timestamp, blocks }', async () => {
    const t = (await head()).timestamp + 10_000;
    await provider.send('evm_mine', [t]);
    expect((await head()).timestamp).toBe(t);
    await provider.send('evm_mine', [String(t + 100)]);
    expect((await head()).timestamp).toBe(t + 100);
    await provider.send('evm_mine', [{ timestamp: t + 200 }]);
    expect((await head()).timestamp).toBe(t + 200);
    const before = await head();
    await provider.send('evm_mine', [{ timestamp: t + 300, blocks: 3 }]);
    const after = await head();
    expect(after.number).toBe(before.number + 3);
    expect(Number((await block(before.number + 1)).timestamp)).toBe(t + 300);
    expect(after.timestamp).toBeGreaterThan(t + 300);
  });

  it('evm_setNextBlockTimestamp and evm_increaseTime with numbers and decimal strings', async () => {
    const t = (await head()).timestamp + 5000;
    expect(await provider.send('evm_setNextBlockTimestamp', [String(t)])).toBe(String(t));
    await provider.send('evm_mine', []);
    expect((await head()).timestamp).toBe(t);
    const offset = BigInt(await provider.send('evm_increaseTime', [0]));
    expect(BigInt(await provider.send('evm_increaseTime', ['3600']))).toBe(offset + 3600n);
    expect(BigInt(await provider.send('evm_increaseTime', ['0x0e10']))).toBe(offset + 7200n);
  });

  it('state edits read decimal strings as decimal and numbers as numbers (Anvil)', async () => {
    await provider.send('hardhat_setBalance', [A, '1000000000000000000']);
    expect(await provider.send('eth_getBalance', [A, 'latest'])).toBe('0xde0b6b3a7640000');
    await provider.send('anvil_setBalance', [A, 4096]);
    expect(await provider.send('eth_getBalance', [A, 'latest'])).toBe('0x1000');
    await provider.send('hardhat_setNonce', [A, 7]);
    expect(await provider.send('eth_getTransactionCount', [A, 'latest'])).toBe('0x7');
    await provider.send('anvil_setNonce', [A, '10']);
    expect(await provider.send('eth_getTransactionCount', [A, 'latest'])).toBe('0xa');
    await provider.send('hardhat_setStorageAt', [A, 10, WORD]);
    expect(await provider.send('eth_getStorageAt', [A, '0xa', 'latest'])).toBe(WORD);
    const other = `0x${'00'.repeat(31)}07`;
    await provider.send('anvil_setStorageAt', [A, '16', other]);
    expect(await provider.send('eth_getStorageAt', [A, '0x10', 'latest'])).toBe(other);
    await provider.send('hardhat_setStorageAt', [A, `0x${'00'.repeat(31)}0b`, other]);
    expect(await provider.send('eth_getStorageAt', [A, '0xb', 'latest'])).toBe(other);
  });

  it('miner settings and snapshots with numbers', async () => {
    await provider.send('evm_setBlockGasLimit', [25_000_000]);
    await provider.send('hardhat_setNextBlockBaseFeePerGas', ['7']);
    await provider.send('evm_mine', []);
    const b = await block('latest');
    expect(Number(b.gasLimit)).toBe(25_000_000);
    expect(b.baseFeePerGas).toBe('0x7');
    const id = await provider.send('evm_snapshot', []);
    await provider.send('evm_mine', []);
    expect(await provider.send('evm_revert', [Number(id)])).toBe(true);
    expect(Number((await block('latest')).number)).toBe(Number(b.number));
  });
});
