import { type Kernel, createKernel } from '@ashlar/core';
import { bytesToHex } from '@ethereumjs/util';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';

let k: Kernel;
beforeAll(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
});
afterAll(() => k.close());

const to = '0x00000000000000000000000000000000000000ab';
const walletOf = (i: number) => new Wallet(bytesToHex(k.chain.accounts[i].privateKey));

describe('eth_sendRawTransaction of bytes sent before', () => {
  it('after evm_revert: the same transaction, mined again on the state it meets', async () => {
    const wallet = walletOf(6);
    const raw = await wallet.signTransaction({
      type: 2,
      chainId: 31337n,
      nonce: 0,
      to,
      value: 5n,
      gasLimit: 21_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
    });
    const snapshot = await k.request<string>({ method: 'evm_snapshot' });
    const first = await k.request<string>({ method: 'eth_sendRawTransaction', params: [raw] });
    expect(await k.request({ method: 'evm_revert', params: [snapshot] })).toBe(true);
    const again = await k.request<string>({ method: 'eth_sendRawTransaction', params: [raw] });
    expect(again).toBe(first);
    const tx = await k.request<{ from: string; hash: string }>({ method: 'eth_getTransactionByHash', params: [again] });
    expect(tx.from).toBe(wallet.address.toLowerCase());
    const receipt = await k.request<{ status: string }>({ method: 'eth_getTransactionReceipt', params: [again] });
    expect(receipt.status).toBe('0x1');
    // Once mined, the same bytes are refused as before: it is in the chain.
    await expect(k.request({ method: 'eth_sendRawTransaction', params: [raw] })).rejects.toThrow(/already known/);
  });
});
