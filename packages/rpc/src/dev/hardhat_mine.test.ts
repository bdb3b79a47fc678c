import { type Kernel, createKernel } from '@ashlar/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';

interface Block {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  stateRoot: string;
  baseFeePerGas: string;
  transactions: string[];
  withdrawals?: unknown[];
}

let k: Kernel;
const rpc = <T = unknown>(method: string, params: unknown[] = []) => k.request<T>({ method, params });
const block = (n: number | string) =>
  rpc<Block | null>('eth_getBlockByNumber', [typeof n === 'number' ? `0x${n.toString(16)}` : n, false]);
const A = () => k.chain.accounts[0].address.toString();
const B = () => k.chain.accounts[1].address.toString();

beforeEach(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
});
afterEach(() => k.close());

/** Checks parentHash links and timestamp steps over blocks from..to. */
async function expectChained(from: number, to: number, interval?: number): Promise<void> {
  let prev = (await block(from)) as Block;
  for (let n = from + 1; n <= to; n++) {
    const b = (await block(n)) as Block;
    expect(b.number).toBe(`0x${n.toString(16)}`);
    expect(b.parentHash).toBe(prev.hash);
    if (interval !== undefined) expect(Number(b.timestamp) - Number(prev.timestamp)).toBe(interval);
    else expect(Number(b.timestamp)).toBeGreaterThan(Number(prev.timestamp));
    prev = b;
  }
}

describe('hardhat_mine / anvil_mine', () => {
  it('mines one block by default', async () => {
    expect(await rpc('hardhat_mine')).toBe(true);
    expect(await rpc('eth_blockNumber')).toBe('0x1');
  });

  it('builds a few blocks for real, interval seconds apart', async () => {
    await rpc('anvil_mine', ['0x4', '0xa']);
    expect(await rpc('eth_blockNumber')).toBe('0x4');
    await expectChained(1, 4, 10);
    expect(k.chain.head.block.header.stateRoot).toEqual(k.chain.headStateRoot);
  });

  it('reserves many empty blocks: linked, timed, with falling base fees, found by number and hash', async () => {
    await rpc('hardhat_mine', ['0x3e8', '0x3']); // 1000 blocks, 3 s apart
    expect(await rpc('eth_blockNumber')).toBe('0x3e8');
    await expectChained(0, 1000);
    const one = (await block(1)) as Block;
    const mid = (await block(500)) as Block;
    expect(Number(mid.timestamp)).toBe(Number(one.timestamp) + 499 * 3);
    expect(BigInt(mid.baseFeePerGas)).toBeLessThan(BigInt(one.baseFeePerGas));
    expect(mid.transactions).toEqual([]);
    expect(mid.withdrawals).toEqual([]);
    // a reserved block keeps the state root of the block before the range
    expect(mid.stateRoot).toBe(one.stateRoot);
    expect((await rpc<Block>('eth_getBlockByHash', [mid.hash, false])).number).toBe('0x1f4');
    expect(await rpc('eth_getBlockByNumber', ['0x3e9', false])).toBeNull();
    expect(await rpc('eth_getBlockTransactionCountByNumber', ['0x1f4'])).toBe('0x0');
    expect(await rpc('eth_getBalance', [A(), '0x1f4'])).toBe('0x21e19e0c9bab2400000');
  });

  it('mines pooled transactions first, then reserves the empty rest', async () => {
    await rpc('evm_setAutomine', [false]);
    const h1 = await rpc<string>('eth_sendTransaction', [{ from: A(), to: B(), value: '0x1' }]);
    const h2 = await rpc<string>('eth_sendTransaction', [{ from: A(), to: B(), value: '0x2' }]);
    await rpc('hardhat_mine', ['0x64']);
    expect(await rpc('eth_blockNumber')).toBe('0x64');
    const r1 = await rpc<{ blockNumber: string }>('eth_getTransactionReceipt', [h1]);
    const r2 = await rpc<{ blockNumber: string }>('eth_getTransactionReceipt', [h2]);
    expect(r1.blockNumber).toBe('0x1');
    expect(r2.blockNumber).toBe('0x1');
    expect(k.mempool.size).toBe(0);
  });

  it('builds the next block on top of a reserved range', async () => {
    await rpc('hardhat_mine', ['0x100']);
    const top = (await block('latest')) as Block;
    const hash = await rpc<string>('eth_sendTransaction', [{ from: A(), to: B(), value: '0x1' }]);
    const receipt = await rpc<{ blockNumber: string; status: string }>('eth_getTransactionReceipt', [hash]);
    expect(receipt).toMatchObject({ blockNumber: '0x101', status: '0x1' });
    const next = (await block(0x101)) as Block;
    expect(next.parentHash).toBe(top.hash);
    expect(Number(next.timestamp)).toBeGreaterThan(Number(top.timestamp));
  });

  it('snapshot inside a reserved range: revert truncates the range and keeps block identities', async () => {
    await rpc('hardhat_mine', ['0x200']);
    const at = (await block(0x180)) as Block;
    const id = await rpc('evm_snapshot');
    await rpc('hardhat_mine', ['0x200']);
    await rpc('eth_sendTransaction', [{ from: A(), to: B(), value: '0x1' }]);
    expect(await rpc('eth_blockNumber')).toBe('0x401');
    await rpc('evm_revert', [id]);
    expect(await rpc('eth_blockNumber')).toBe('0x200');
    expect(await block(0x201)).toBeNull();
    expect(((await block(0x180)) as Block).hash).toBe(at.hash);
    // the chain goes on from the reverted head
    await rpc('hardhat_mine', ['0x20']);
    await expectChained(0x1f0, 0x220);
  });

  it('a revert across a million reserved blocks walks only the stored ones', async () => {
    const id = await rpc('evm_snapshot');
    await rpc('hardhat_mine', ['0xf4240']); // 1,000,000
    await rpc('evm_mine');
    expect(await rpc('evm_revert', [id])).toBe(true);
    expect(await rpc('eth_blockNumber')).toBe('0x0');
    expect(await block(1)).toBeNull();
  });

  it('mines 1,000,000 blocks without building them: the number, a block inside, its neighbours and the next block', async () => {
    await rpc('hardhat_mine', ['0xf4240', '0xc']);
    expect(await rpc('eth_blockNumber')).toBe('0xf4240');
    const b = (await block(654_321)) as Block;
    const before = (await block(654_320)) as Block;
    const after = (await block(654_322)) as Block;
    expect(b.parentHash).toBe(before.hash);
    expect(after.parentHash).toBe(b.hash);
    expect(Number(after.timestamp) - Number(b.timestamp)).toBe(12);
    const first = (await block(1)) as Block;
    expect(Number(b.timestamp)).toBe(Number(first.timestamp) + 654_320 * 12);
    await rpc('evm_mine');
    const last = (await block('latest')) as Block;
    expect(last.number).toBe('0xf4241');
    expect(last.parentHash).toBe(((await block(1_000_000)) as Block).hash);
  });

  it('answers BLOCKHASH for a reserved block with its hash', async () => {
    await rpc('hardhat_mine', ['0x20']);
    const b = (await block(0x10)) as Block;
    // init code: PUSH1 0x10 BLOCKHASH PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    const out = await rpc('eth_call', [{ data: '0x60104060005260206000f3' }, 'latest']);
    expect(out).toBe(b.hash);
  });

  it('rejects counts and intervals that are not integers (-32602 naming them)', async () => {
    // A decimal string such as "10" is a count to Hardhat and Anvil (docs/param-shapes.md); these are not.
    await expect(rpc('hardhat_mine', ['ten'])).rejects.toMatchObject({ code: -32602, message: /blocks/ });
    await expect(rpc('hardhat_mine', [1.5])).rejects.toMatchObject({ code: -32602, message: /blocks/ });
    await expect(rpc('hardhat_mine', ['0x1', 'x'])).rejects.toMatchObject({ code: -32602, message: /interval/ });
  });
});
