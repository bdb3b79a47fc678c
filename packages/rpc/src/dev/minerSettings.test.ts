import { type Kernel, createKernel } from '@ashlar/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';

let k: Kernel;
const rpc = <T = unknown>(method: string, params: unknown[] = []) => k.request<T>({ method, params });
const latest = () =>
  rpc<{ baseFeePerGas: string; miner: string; withdrawals: unknown[] }>('eth_getBlockByNumber', ['latest', false]);
const X = '0x00000000000000000000000000000000000000cc';

beforeEach(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
});
afterEach(() => k.close());

describe('hardhat_setNextBlockBaseFeePerGas', () => {
  it('sets the base fee of the next block only', async () => {
    expect(await rpc('anvil_setNextBlockBaseFeePerGas', ['0x3b9aca00'])).toBe(true);
    await rpc('evm_mine');
    expect((await latest()).baseFeePerGas).toBe('0x3b9aca00');
    await rpc('evm_mine');
    expect((await latest()).baseFeePerGas).not.toBe('0x3b9aca00');
  });

  it('is refused before London', async () => {
    const old = await createKernel({ plugins: rpcPlugins(), chain: { hardfork: 'berlin' } });
    try {
      await expect(old.request({ method: 'hardhat_setNextBlockBaseFeePerGas', params: ['0x1'] })).rejects.toMatchObject(
        { code: -32602, message: /EIP-1559/ },
      );
    } finally {
      await old.close();
    }
  });

  it('rejects a malformed fee (-32602 naming it)', async () => {
    await expect(rpc('hardhat_setNextBlockBaseFeePerGas', ['1gwei'])).rejects.toMatchObject({
      code: -32602,
      message: /baseFeePerGas/,
    });
  });
});

describe('hardhat_setCoinbase', () => {
  it('names the beneficiary of the next blocks', async () => {
    expect(await rpc('hardhat_setCoinbase', [X])).toBe(true);
    await rpc('evm_mine');
    expect((await latest()).miner).toBe(X);
    expect(await rpc('eth_coinbase')).toBe(X);
  });

  it('rejects a malformed address (-32602 naming it)', async () => {
    await expect(rpc('anvil_setCoinbase', ['0x12'])).rejects.toMatchObject({ code: -32602, message: /address/ });
  });
});

describe('hardhat_setMinGasPrice', () => {
  it('makes the pool refuse cheaper transactions', async () => {
    expect(await rpc('hardhat_setMinGasPrice', ['0x174876e800'])).toBe(true); // 100 gwei
    const from = k.chain.accounts[0].address.toString();
    await expect(
      rpc('eth_sendTransaction', [{ from, to: X, maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1' }]),
    ).rejects.toMatchObject({ code: -32000 });
    await rpc('anvil_setMinGasPrice', ['0x0']);
    await rpc('eth_sendTransaction', [{ from, to: X, maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1' }]);
  });

  it('rejects a malformed price (-32602 naming it)', async () => {
    await expect(rpc('hardhat_setMinGasPrice', [])).rejects.toMatchObject({ code: -32602, message: /minGasPrice/ });
  });
});

describe('hardhat_setLoggingEnabled', () => {
  it('is accepted', async () => {
    expect(await rpc('hardhat_setLoggingEnabled', [false])).toBe(true);
    await expect(rpc('anvil_setLoggingEnabled', ['no'])).rejects.toMatchObject({ code: -32602, message: /enabled/ });
  });
});

describe('ashlar_addWithdrawals', () => {
  it('pays EIP-4895 withdrawals in the next block, indexes running on', async () => {
    const w = { validatorIndex: '0x7', address: X, amount: '0x3b9aca00' }; // 1 ETH in Gwei
    expect(await rpc('ashlar_addWithdrawals', [[w, { ...w, index: '0x5' }]])).toBe('0x2');
    await rpc('evm_mine');
    const block = await latest();
    expect(block.withdrawals).toEqual([
      { index: '0x0', validatorIndex: '0x7', address: X, amount: '0x3b9aca00' },
      { index: '0x5', validatorIndex: '0x7', address: X, amount: '0x3b9aca00' },
    ]);
    expect(await rpc('eth_getBalance', [X, 'latest'])).toBe('0x1bc16d674ec80000'); // 2 ETH
    await rpc('ashlar_addWithdrawals', [[w]]);
    await rpc('evm_mine');
    expect((await latest()).withdrawals).toEqual([
      { index: '0x6', validatorIndex: '0x7', address: X, amount: '0x3b9aca00' },
    ]);
    await rpc('evm_mine');
    expect((await latest()).withdrawals).toEqual([]);
    // after a block without withdrawals, indexes still run on from the last one paid
    await rpc('ashlar_addWithdrawals', [[w]]);
    await rpc('evm_mine');
    expect((await latest()).withdrawals).toEqual([
      { index: '0x7', validatorIndex: '0x7', address: X, amount: '0x3b9aca00' },
    ]);
  });

  it('rejects a withdrawal without an address (-32602 naming it)', async () => {
    await expect(rpc('ashlar_addWithdrawals', [[{ validatorIndex: '0x1', amount: '0x1' }]])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/withdrawals.*address/),
    });
  });
});
