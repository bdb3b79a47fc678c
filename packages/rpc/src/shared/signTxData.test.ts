import { type Kernel, createKernel } from '@ashlar/core';
import { createTx } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { Transaction, getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';
import { signTxData } from './signTxData.js';

let k: Kernel;
beforeAll(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
});
afterAll(() => k.close());

const to = createAddressFromString('0x00000000000000000000000000000000000000ab');
const base = {
  nonce: 7n,
  gasLimit: 90_000n,
  to,
  value: 10n ** 18n,
  data: Uint8Array.of(0xa9, 0x05, 0x9c, 0xbb, 0, 1, 2),
  chainId: 31337n,
};
const cases: Record<string, Record<string, unknown>> = {
  legacy: { ...base, type: 0, gasPrice: 0x9184e72a000n },
  'legacy creation, nonce 0, no value': { ...base, type: 0, gasPrice: 1n, to: undefined, nonce: 0n, value: 0n },
  'EIP-2930 without access list': { ...base, type: 1, gasPrice: 5n, accessList: [] },
  'EIP-1559': { ...base, type: 2, maxPriorityFeePerGas: 10n ** 9n, maxFeePerGas: 3n * 10n ** 9n },
  'EIP-1559 creation': { ...base, type: 2, to: undefined, maxPriorityFeePerGas: 0n, maxFeePerGas: 7n },
};

describe('signTxData', () => {
  for (const [name, data] of Object.entries(cases)) {
    it(`signs ${name} as @ethereumjs's sign does, recoverable to the key's address`, () => {
      const account = k.chain.accounts[1];
      const common = k.chain.common;
      const tx = signTxData(common, data, account.privateKey);
      expect(tx).toBeDefined();
      const reference = createTx(data as Parameters<typeof createTx>[0], { common }).sign(account.privateKey);
      expect(bytesToHex(tx?.serialize() ?? new Uint8Array())).toBe(bytesToHex(reference.serialize()));
      // An independent decoder recovers the sender from the signature alone.
      const decoded = Transaction.from(bytesToHex(tx?.serialize() ?? new Uint8Array()));
      expect(decoded.from?.toLowerCase()).toBe(account.address.toString());
      expect(decoded.chainId).toBe(31337n);
      expect(decoded.type).toBe(data.type);
    });
  }

  it('leaves to the usual path what it does not encode or what is invalid', () => {
    const key = k.chain.accounts[0].privateKey;
    const common = k.chain.common;
    const accessList = [{ address: to.toString(), storageKeys: [] }];
    expect(signTxData(common, { ...cases['EIP-1559'], accessList }, key)).toBeUndefined();
    expect(signTxData(common, { ...cases['EIP-1559'], type: 4, authorizationList: [] }, key)).toBeUndefined();
    expect(signTxData(common, { ...cases.legacy, chainId: 1n }, key)).toBeUndefined();
    // A fee cap below the tip: @ethereumjs's constructor refuses it, with its own message, on the usual path.
    expect(
      signTxData(common, { ...cases['EIP-1559'], maxPriorityFeePerGas: 10n, maxFeePerGas: 9n }, key),
    ).toBeUndefined();
  });
});

describe('eth_sendTransaction from a dev account', () => {
  it('answers the hash of the encoding it mined, which recovers to the sender', async () => {
    const from = k.chain.accounts[2].address.toString();
    for (const fees of [{}, { maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1' }]) {
      const hash = await k.request<string>({
        method: 'eth_sendTransaction',
        params: [{ from, to: to.toString(), value: '0x5', gas: '0x5208', ...fees }],
      });
      const raw = await k.request<string>({ method: 'debug_getRawTransaction', params: [hash] });
      const decoded = Transaction.from(raw);
      expect(decoded.hash).toBe(hash);
      expect(decoded.from?.toLowerCase()).toBe(from);
      const receipt = await k.request<{ transactionHash: string; status: string }>({
        method: 'eth_getTransactionReceipt',
        params: [hash],
      });
      expect(receipt.transactionHash).toBe(hash);
      expect(receipt.status).toBe('0x1');
    }
  });
});

describe('devKeyOf', () => {
  it('finds every dev account, whatever the address case, and no other', async () => {
    const { devKeyOf } = await import('./sign.js');
    const services = { chain: k.chain } as unknown as Parameters<typeof devKeyOf>[0];
    for (const a of k.chain.accounts) {
      const upper = createAddressFromString(`0x${a.address.toString().slice(2).toUpperCase()}`);
      expect(devKeyOf(services, upper)).toBe(a.privateKey);
    }
    expect(devKeyOf(services, to)).toBeUndefined();
    const checksummed = getAddress(k.chain.accounts.at(-1)?.address.toString() ?? '');
    const hash = await k.request<string>({
      method: 'eth_sendTransaction',
      params: [{ from: checksummed, to: to.toString(), value: '0x1', gas: '0x5208' }],
    });
    expect(Transaction.from(await k.request<string>({ method: 'debug_getRawTransaction', params: [hash] })).from).toBe(
      checksummed,
    );
  });
});
