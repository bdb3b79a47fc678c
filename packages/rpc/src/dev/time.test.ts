import { type Kernel, createKernel } from '@ashlar/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';

let k: Kernel;
const rpc = <T = unknown>(method: string, params: unknown[] = []) => k.request<T>({ method, params });
const latest = () =>
  rpc<{ timestamp: string; gasLimit: string; number: string }>('eth_getBlockByNumber', ['latest', false]);
const now = () => Math.floor(Date.now() / 1000);

beforeEach(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
});
afterEach(() => {
  k.miner.stop();
  return k.close();
});

describe('evm_increaseTime', () => {
  it('answers the total offset as a decimal string and moves the next block', async () => {
    expect(await rpc('evm_increaseTime', ['0xe10'])).toBe('3600');
    expect(await rpc('anvil_increaseTime', [60])).toBe('3660');
    await rpc('evm_mine');
    expect(Number((await latest()).timestamp)).toBeGreaterThanOrEqual(now() + 3659);
  });

  it('rejects a negative or non-numeric increase (-32602 naming it)', async () => {
    await expect(rpc('evm_increaseTime', [-1])).rejects.toMatchObject({ code: -32602, message: /seconds/ });
    await expect(rpc('evm_increaseTime', ['soon'])).rejects.toMatchObject({ code: -32602, message: /seconds/ });
  });
});

describe('evm_setNextBlockTimestamp', () => {
  it('fixes the next block timestamp once; answers it in decimal', async () => {
    const t = now() + 100_000;
    expect(await rpc('evm_setNextBlockTimestamp', [`0x${t.toString(16)}`])).toBe(String(t));
    await rpc('evm_mine');
    expect(Number((await latest()).timestamp)).toBe(t);
    await rpc('evm_mine');
    expect(Number((await latest()).timestamp)).toBeGreaterThan(t);
  });

  it('accepts a JSON number (anvil_ spelling)', async () => {
    const t = now() + 500;
    await rpc('anvil_setNextBlockTimestamp', [t]);
    await rpc('evm_mine');
    expect(Number((await latest()).timestamp)).toBe(t);
  });

  it('rejects a timestamp in the past (-32602 naming it)', async () => {
    const head = Number(k.chain.head.block.header.timestamp);
    await expect(rpc('evm_setNextBlockTimestamp', [head])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/argument 0 \(timestamp\).*lower than or equal/),
    });
    await expect(rpc('evm_setNextBlockTimestamp', [1])).rejects.toMatchObject({ code: -32602 });
  });
});

describe('evm_setBlockGasLimit', () => {
  it('sets the gas limit of the next blocks', async () => {
    expect(await rpc('evm_setBlockGasLimit', ['0x1c9c380'])).toBe(true);
    await rpc('evm_mine');
    expect((await latest()).gasLimit).toBe('0x1c9c380');
  });

  it('rejects a limit below a transfer (-32602 naming it)', async () => {
    await expect(rpc('evm_setBlockGasLimit', ['0x0'])).rejects.toMatchObject({ code: -32602, message: /gasLimit/ });
  });
});

describe('automine and interval mining', () => {
  it('reports automine (hardhat_getAutomine / anvil_getAutomine)', async () => {
    expect(await rpc('hardhat_getAutomine')).toBe(true);
    await rpc('evm_setAutomine', [false]);
    expect(await rpc('anvil_getAutomine')).toBe(false);
  });

  it('evm_setIntervalMining reads Hardhat milliseconds and Anvil seconds; anvil_setIntervalMining seconds', async () => {
    expect(await rpc('evm_setIntervalMining', [5000])).toBe(true);
    expect(k.miner.blockTime).toBe(5);
    expect(await rpc('evm_setIntervalMining', [5])).toBe(true);
    expect(k.miner.blockTime).toBe(5);
    expect(await rpc('evm_setIntervalMining', [[1000, 2000]])).toBe(true);
    expect(k.miner.blockTime).toBeGreaterThanOrEqual(1);
    expect(k.miner.blockTime).toBeLessThanOrEqual(2);
    expect(await rpc('evm_setIntervalMining', [[500, 500]])).toBe(true);
    expect(k.miner.blockTime).toBe(0.5);
    expect(await rpc('anvil_setIntervalMining', [3])).toBe(true);
    expect(k.miner.blockTime).toBe(3);
    expect(await rpc('evm_setIntervalMining', [0])).toBe(true);
    expect(k.miner.blockTime).toBe(0);
  });

  it('mines on the interval', async () => {
    await rpc('evm_setIntervalMining', [[50, 50]]);
    await new Promise<void>((resolve) => {
      k.events.once('block', () => resolve());
    });
    await rpc('evm_setIntervalMining', [0]);
    expect(Number(await rpc('eth_blockNumber'))).toBeGreaterThanOrEqual(1);
  });

  it('rejects a malformed interval (-32602 naming it)', async () => {
    await expect(rpc('evm_setIntervalMining', [[3, 2]])).rejects.toMatchObject({ code: -32602, message: /interval/ });
    await expect(rpc('evm_setIntervalMining', [true])).rejects.toMatchObject({ code: -32602, message: /interval/ });
  });
});
