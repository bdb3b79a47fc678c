import { type Kernel, createKernel } from '@ashlar/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';

let k: Kernel;
const rpc = <T = unknown>(method: string, params: unknown[] = []) => k.request<T>({ method, params });
const A = () => k.chain.accounts[0].address.toString();
const B = () => k.chain.accounts[1].address.toString();
const send = (value = '0x1', from = A()) => rpc<string>('eth_sendTransaction', [{ from, to: B(), value }]);

beforeEach(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
});
afterEach(() => k.close());

describe('evm_snapshot / evm_revert', () => {
  it('hands out increasing ids from 0x1, as Hardhat', async () => {
    expect(await rpc('evm_snapshot')).toBe('0x1');
    expect(await rpc('evm_snapshot')).toBe('0x2');
    expect(await rpc('anvil_snapshot')).toBe('0x3');
  });

  it('rolls back blocks, receipts, lookups and state', async () => {
    const balance = await rpc('eth_getBalance', [B(), 'latest']);
    const id = await rpc('evm_snapshot');
    const hash = await send();
    expect(await rpc('eth_blockNumber')).toBe('0x1');
    expect(await rpc('evm_revert', [id])).toBe(true);
    expect(await rpc('eth_blockNumber')).toBe('0x0');
    expect(await rpc('eth_getTransactionReceipt', [hash])).toBeNull();
    expect(await rpc('eth_getTransactionByHash', [hash])).toBeNull();
    expect(await rpc('eth_getBlockByNumber', ['0x1', false])).toBeNull();
    expect(await rpc('eth_getBalance', [B(), 'latest'])).toBe(balance);
    // the same transaction can be sent again: nothing of it is left
    expect(await send()).toBe(hash);
  });

  it('rolls back state edits made without blocks', async () => {
    const id = await rpc('evm_snapshot');
    await rpc('hardhat_setBalance', [B(), '0x1234']);
    await rpc('evm_revert', [id]);
    expect(await rpc('eth_getBalance', [B(), 'latest'])).toBe('0x21e19e0c9bab2400000');
  });

  it('is one-shot: reverting removes the snapshot and every later one', async () => {
    const a = await rpc('evm_snapshot');
    await send();
    const b = await rpc('evm_snapshot');
    await send('0x2');
    expect(await rpc('evm_revert', [a])).toBe(true);
    expect(await rpc('evm_revert', [a])).toBe(false);
    expect(await rpc('evm_revert', [b])).toBe(false);
  });

  it('keeps earlier snapshots usable after reverting a later one', async () => {
    const a = await rpc('evm_snapshot');
    await send();
    const b = await rpc('evm_snapshot');
    await send('0x2');
    expect(await rpc('evm_revert', [b])).toBe(true);
    expect(await rpc('eth_blockNumber')).toBe('0x1');
    expect(await rpc('evm_revert', [a])).toBe(true);
    expect(await rpc('eth_blockNumber')).toBe('0x0');
  });

  it('answers false for an unknown id and changes nothing', async () => {
    await send();
    expect(await rpc('evm_revert', ['0x99'])).toBe(false);
    expect(await rpc('evm_revert', [7])).toBe(false);
    expect(await rpc('eth_blockNumber')).toBe('0x1');
  });

  it('restores the pool as it was at the snapshot', async () => {
    await rpc('evm_setAutomine', [false]);
    const kept = await send('0x1');
    const id = await rpc('evm_snapshot');
    const later = await send('0x2');
    await rpc('hardhat_dropTransaction', [kept]);
    expect(k.mempool.size).toBe(1);
    await rpc('evm_revert', [id]);
    expect(k.mempool.get(kept)).toBeDefined();
    expect(k.mempool.get(later)).toBeUndefined();
    await rpc('evm_mine');
    expect(((await rpc('eth_getTransactionReceipt', [kept])) as { status: string }).status).toBe('0x1');
  });

  it('restores the clock: offset, next timestamp, next base fee and coinbase', async () => {
    const id = await rpc('evm_snapshot');
    await rpc('evm_increaseTime', [3600]);
    await rpc('evm_setNextBlockTimestamp', [Number(k.chain.head.block.header.timestamp) + 10_000]);
    await rpc('hardhat_setNextBlockBaseFeePerGas', ['0x12345']);
    await rpc('hardhat_setCoinbase', [B()]);
    await rpc('evm_revert', [id]);
    expect(k.miner.timeOffset <= 0n).toBe(true);
    expect(k.miner.nextTimestamp).toBeUndefined();
    expect(k.miner.nextBaseFee).toBeUndefined();
    expect(k.miner.coinbase).toBe(k.options.chain.coinbase);
    await rpc('evm_mine');
    const block = await rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
    // mined now, not an hour ahead
    expect(Number(block.timestamp)).toBeLessThan(Math.floor(Date.now() / 1000) + 60);
  });

  it('emits the revert event with the removed blocks', async () => {
    const id = await rpc('evm_snapshot');
    await send();
    await send('0x2');
    const seen: bigint[] = [];
    k.events.on('revert', (e) => seen.push(e.toNumber, ...e.removed.map((b) => b.number)));
    await rpc('evm_revert', [id]);
    expect(seen).toEqual([0n, 2n, 1n]);
  });

  it('rejects a snapshot id that is not a quantity (-32602 naming it)', async () => {
    await expect(rpc('evm_revert', ['one'])).rejects.toMatchObject({ code: -32602, message: /snapshotId/ });
    await expect(rpc('evm_revert', [])).rejects.toMatchObject({ code: -32602, message: /snapshotId/ });
  });
});
