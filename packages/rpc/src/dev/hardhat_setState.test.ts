import { type Kernel, createKernel } from '@ashlar/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';

let k: Kernel;
const rpc = <T = unknown>(method: string, params: unknown[] = []) => k.request<T>({ method, params });
const X = '0x00000000000000000000000000000000000000aa';
const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
// runtime code: return storage slot 0 (PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN)
const RETURN_SLOT0 = '0x60005460005260206000f3';

beforeEach(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
});
afterEach(() => k.close());

describe('hardhat_setBalance / anvil_setBalance', () => {
  it('sets the balance without mining', async () => {
    expect(await rpc('hardhat_setBalance', [X, '0xde0b6b3a7640000'])).toBe(true);
    expect(await rpc('eth_getBalance', [X, 'latest'])).toBe('0xde0b6b3a7640000');
    await rpc('anvil_setBalance', [X, '0x0']);
    expect(await rpc('eth_getBalance', [X, 'latest'])).toBe('0x0');
    expect(await rpc('eth_blockNumber')).toBe('0x0');
  });

  it('keeps the edit in the next mined block', async () => {
    await rpc('hardhat_setBalance', [X, '0x64']);
    await rpc('evm_mine');
    expect(await rpc('eth_getBalance', [X, '0x1'])).toBe('0x64');
  });

  it('rejects a negative balance (-32602 naming it)', async () => {
    await expect(rpc('hardhat_setBalance', [X, '-0x1'])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/argument 1 \(balance\).*negative/),
    });
    await expect(rpc('hardhat_setBalance', [X, -5])).rejects.toMatchObject({ code: -32602, message: /balance/ });
  });

  it('rejects a malformed address (-32602 naming it)', async () => {
    await expect(rpc('hardhat_setBalance', ['0x1234', '0x1'])).rejects.toMatchObject({
      code: -32602,
      message: /argument 0 \(address\)/,
    });
  });
});

describe('hardhat_setCode / anvil_setCode', () => {
  it('installs code that runs, and "0x" removes it', async () => {
    expect(await rpc('hardhat_setCode', [X, RETURN_SLOT0])).toBe(true);
    expect(await rpc('eth_getCode', [X, 'latest'])).toBe(RETURN_SLOT0);
    expect(await rpc('eth_call', [{ to: X }, 'latest'])).toBe(slot(0));
    await rpc('anvil_setCode', [X, '0x']);
    expect(await rpc('eth_getCode', [X, 'latest'])).toBe('0x');
  });

  it('rejects code that is not hex (-32602 naming it)', async () => {
    await expect(rpc('hardhat_setCode', [X, '0xzz'])).rejects.toMatchObject({
      code: -32602,
      message: /argument 1 \(code\)/,
    });
    await expect(rpc('hardhat_setCode', [X, '6000'])).rejects.toMatchObject({ code: -32602, message: /code/ });
  });
});

describe('hardhat_setNonce / anvil_setNonce', () => {
  it('sets the nonce the next transaction uses', async () => {
    const a = k.chain.accounts[0].address.toString();
    expect(await rpc('hardhat_setNonce', [a, '0x10'])).toBe(true);
    expect(await rpc('eth_getTransactionCount', [a, 'latest'])).toBe('0x10');
    const hash = await rpc('eth_sendTransaction', [{ from: a, to: X }]);
    expect(await rpc<{ nonce: string }>('eth_getTransactionByHash', [hash])).toMatchObject({ nonce: '0x10' });
  });

  it('drops pooled transactions the new nonce makes unmineable', async () => {
    const a = k.chain.accounts[0].address.toString();
    await rpc('evm_setAutomine', [false]);
    await rpc('eth_sendTransaction', [{ from: a, to: X }]);
    await rpc('anvil_setNonce', [a, '0x1']);
    expect(k.mempool.size).toBe(0);
  });

  it('refuses to lower a nonce (-32602 naming it)', async () => {
    const a = k.chain.accounts[0].address.toString();
    await rpc('hardhat_setNonce', [a, '0x5']);
    await expect(rpc('hardhat_setNonce', [a, '0x4'])).rejects.toMatchObject({
      code: -32602,
      message: /argument 1 \(nonce\).*smaller/,
    });
  });
});

describe('hardhat_setStorageAt / anvil_setStorageAt', () => {
  it('writes a slot the contract reads', async () => {
    await rpc('hardhat_setCode', [X, RETURN_SLOT0]);
    expect(await rpc('hardhat_setStorageAt', [X, '0x0', slot(42)])).toBe(true);
    expect(await rpc('eth_getStorageAt', [X, '0x0', 'latest'])).toBe(slot(42));
    expect(await rpc('eth_call', [{ to: X }, 'latest'])).toBe(slot(42));
    // viem pads the index to 32 bytes
    await rpc('anvil_setStorageAt', [X, slot(0), slot(0)]);
    expect(await rpc('eth_getStorageAt', [X, '0x0', 'latest'])).toBe(slot(0));
  });

  it('rejects a value that is not 32 bytes (-32602 naming it)', async () => {
    await expect(rpc('hardhat_setStorageAt', [X, '0x0', '0x01'])).rejects.toMatchObject({
      code: -32602,
      message: /argument 2 \(value\)/,
    });
  });
});

describe('anvil_dumpState / anvil_loadState', () => {
  it('round-trips every account into a fresh chain: balance, nonce, code, storage', async () => {
    const a = k.chain.accounts[0].address.toString();
    await rpc('hardhat_setCode', [X, RETURN_SLOT0]);
    await rpc('hardhat_setStorageAt', [X, '0x0', slot(7)]);
    await rpc('hardhat_setStorageAt', [X, '0x1234', slot(8)]);
    await rpc('hardhat_setBalance', [X, '0x99']);
    await rpc('eth_sendTransaction', [{ from: a, to: X, value: '0x1' }]);
    const dump = await rpc<string>('anvil_dumpState');
    expect(dump).toMatch(/^0x1f8b/); // gzip, as Anvil
    const root = k.chain.headStateRoot;

    const other = await createKernel({ plugins: rpcPlugins(), chain: { accounts: 0 } });
    try {
      expect(await other.request({ method: 'anvil_loadState', params: [dump] })).toBe(true);
      const ask = (method: string, params: unknown[]) => other.request({ method, params });
      expect(await ask('eth_getBalance', [X, 'latest'])).toBe('0x9a');
      expect(await ask('eth_getCode', [X, 'latest'])).toBe(RETURN_SLOT0);
      expect(await ask('eth_getStorageAt', [X, '0x1234', 'latest'])).toBe(slot(8));
      expect(await ask('eth_call', [{ to: X }, 'latest'])).toBe(slot(7));
      expect(await ask('eth_getTransactionCount', [a, 'latest'])).toBe('0x1');
      // the same accounts make the same state
      expect(other.chain.headStateRoot).toEqual(root);
    } finally {
      await other.close();
    }
  });

  it('loads an Anvil-style JSON object with plain slots', async () => {
    const state = {
      accounts: {
        [X]: { nonce: 3, balance: '0x10', code: RETURN_SLOT0, storage: { [slot(0)]: slot(5) } },
      },
    };
    await rpc('anvil_loadState', [state]);
    expect(await rpc('eth_getTransactionCount', [X, 'latest'])).toBe('0x3');
    expect(await rpc('eth_call', [{ to: X }, 'latest'])).toBe(slot(5));
  });

  it('rejects something that is not a dump (-32602 naming it)', async () => {
    await expect(rpc('anvil_loadState', [{ foo: 1 }])).rejects.toMatchObject({ code: -32602, message: /state/ });
    await expect(rpc('anvil_loadState', ['0x1234'])).rejects.toMatchObject({ code: -32602, message: /state/ });
  });
});
