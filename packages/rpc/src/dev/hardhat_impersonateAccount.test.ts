import { type Kernel, createKernel } from '@ashlar/core';
import { keccak256 } from 'ethers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';

let k: Kernel;
const rpc = <T = unknown>(method: string, params: unknown[] = []) => k.request<T>({ method, params });
const WHALE = '0x00000000000000000000000000000000000000f1';
const OTHER = '0x00000000000000000000000000000000000000f2';
const TO = '0x00000000000000000000000000000000000000f3';

beforeEach(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
  await rpc('hardhat_setBalance', [WHALE, '0xde0b6b3a7640000']);
  await rpc('hardhat_setBalance', [OTHER, '0xde0b6b3a7640000']);
});
afterEach(() => k.close());

interface Tx {
  hash: string;
  from: string;
  blockNumber: string | null;
  r: string;
  s: string;
}

describe('impersonation', () => {
  it('sends unsigned transactions from an impersonated account; they are mined and served like any other', async () => {
    expect(await rpc('hardhat_impersonateAccount', [WHALE])).toBe(true);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: WHALE, to: TO, value: '0x5' }]);
    const receipt = await rpc<{ status: string; from: string }>('eth_getTransactionReceipt', [hash]);
    expect(receipt).toMatchObject({ status: '0x1', from: WHALE });
    const tx = await rpc<Tx>('eth_getTransactionByHash', [hash]);
    expect(tx).toMatchObject({ hash, from: WHALE, blockNumber: '0x1' });
    expect(await rpc('eth_getBalance', [TO, 'latest'])).toBe('0x5');
    const block = await rpc<{ transactions: Tx[] }>('eth_getBlockByNumber', ['0x1', true]);
    expect(block.transactions[0].from).toBe(WHALE);
    // Its hash is the hash of the encoding the block holds.
    expect(keccak256(await rpc<string>('debug_getRawTransaction', [hash]))).toBe(hash);
  });

  it('gives each sender and nonce its own stable hash', async () => {
    await rpc('hardhat_impersonateAccount', [WHALE]);
    await rpc('hardhat_impersonateAccount', [OTHER]);
    const id = await rpc('evm_snapshot');
    const a = await rpc<string>('eth_sendTransaction', [{ from: WHALE, to: TO, gas: '0x5208' }]);
    const b = await rpc<string>('eth_sendTransaction', [{ from: OTHER, to: TO, gas: '0x5208' }]);
    const c = await rpc<string>('eth_sendTransaction', [{ from: WHALE, to: TO, gas: '0x5208' }]);
    expect(new Set([a, b, c]).size).toBe(3);
    await rpc('evm_revert', [id]);
    // the same request after a revert builds the same transaction
    expect(await rpc('eth_sendTransaction', [{ from: WHALE, to: TO, gas: '0x5208' }])).toBe(a);
  });

  it('deploys a contract from an impersonated account', async () => {
    await rpc('anvil_impersonateAccount', [WHALE]);
    // init code: MSTORE8(0, 0x01), RETURN(0, 1): a 1-byte runtime
    const hash = await rpc<string>('eth_sendTransaction', [{ from: WHALE, data: '0x600160005360016000f3' }]);
    const receipt = await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [hash]);
    expect(await rpc('eth_getCode', [receipt.contractAddress, 'latest'])).toBe('0x01');
  });

  it('waits in the pool without automine and is mined by evm_mine', async () => {
    await rpc('hardhat_impersonateAccount', [WHALE]);
    await rpc('evm_setAutomine', [false]);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: WHALE, to: TO, value: '0x1' }]);
    expect((await rpc<Tx>('eth_getTransactionByHash', [hash])).blockNumber).toBeNull();
    await rpc('evm_mine');
    expect((await rpc<Tx>('eth_getTransactionByHash', [hash])).blockNumber).toBe('0x1');
  });

  it('stops impersonating: sends fail with unknown account again', async () => {
    await rpc('hardhat_impersonateAccount', [WHALE]);
    expect(await rpc('hardhat_stopImpersonatingAccount', [WHALE])).toBe(true);
    expect(await rpc('anvil_stopImpersonatingAccount', [WHALE])).toBe(false);
    await expect(rpc('eth_sendTransaction', [{ from: WHALE, to: TO }])).rejects.toMatchObject({
      code: -32000,
      message: `unknown account ${WHALE}`,
    });
  });

  it('auto-impersonates every account while anvil_autoImpersonateAccount is on', async () => {
    expect(await rpc('anvil_autoImpersonateAccount', [true])).toBe(true);
    await rpc('eth_sendTransaction', [{ from: OTHER, to: TO, value: '0x1' }]);
    await rpc('anvil_autoImpersonateAccount', [false]);
    await expect(rpc('eth_sendTransaction', [{ from: OTHER, to: TO }])).rejects.toMatchObject({ code: -32000 });
  });

  it('eth_sendUnsignedTransaction sends from any address', async () => {
    const hash = await rpc<string>('eth_sendUnsignedTransaction', [{ from: OTHER, to: TO, value: '0x3' }]);
    expect((await rpc<Tx>('eth_getTransactionByHash', [hash])).from).toBe(OTHER);
  });

  it('still signs with the dev key when `from` is a dev account', async () => {
    const dev = k.chain.accounts[0].address.toString();
    await rpc('anvil_autoImpersonateAccount', [true]);
    const hash = await rpc<string>('eth_sendTransaction', [{ from: dev, to: TO }]);
    const raw = k.chain.head.block.transactions[0];
    expect(raw.getSenderAddress().toString()).toBe(dev); // a real signature recovers the sender
    expect(await rpc('eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' });
  });

  it('rejects an impersonation of a malformed address (-32602 naming it)', async () => {
    await expect(rpc('hardhat_impersonateAccount', ['0xnotanaddress'])).rejects.toMatchObject({
      code: -32602,
      message: /argument 0 \(address\)/,
    });
    await expect(rpc('hardhat_impersonateAccount', [])).rejects.toMatchObject({ code: -32602, message: /address/ });
    await expect(rpc('anvil_autoImpersonateAccount', ['yes'])).rejects.toMatchObject({
      code: -32602,
      message: /enabled/,
    });
  });
});
