import { type Kernel, createKernel } from '@ashlar/core';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { Transaction, Wallet, getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';
import { SIGNED_MEMO_BYTES, SIGNED_MEMO_SIZE, signTxData } from './signTxData.js';

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
      const signed = signTxData(common, { ...data, nonce: 1000n }, account.privateKey, account.address);
      expect(signed).toBeDefined();
      const tx = signed?.tx as TypedTransaction;
      const reference = createTx({ ...data, nonce: 1000n } as Parameters<typeof createTx>[0], { common }).sign(
        account.privateKey,
      );
      const encoding = bytesToHex(reference.serialize());
      expect(bytesToHex(tx.serialize())).toBe(encoding);
      // The encoding made alongside, the primed hash and sender are the stock ones.
      expect(bytesToHex(signed?.raw ?? new Uint8Array())).toBe(encoding);
      expect(bytesToHex(tx.hash())).toBe(bytesToHex(reference.hash()));
      expect(tx.getSenderAddress().toString()).toBe(reference.getSenderAddress().toString());
      expect(bytesToHex(tx.getSenderPublicKey())).toBe(bytesToHex(reference.getSenderPublicKey()));
      expect(Object.isFrozen(tx)).toBe(true);
      expect(tx.toJSON()).toEqual(reference.toJSON());
      // An independent decoder recovers the sender from the signature alone.
      const decoded = Transaction.from(encoding);
      expect(decoded.from?.toLowerCase()).toBe(account.address.toString());
      expect(decoded.hash).toBe(bytesToHex(reference.hash()));
      expect(decoded.chainId).toBe(31337n);
      expect(decoded.type).toBe(data.type);
    });
  }

  it('answers a message signed before with the same transaction, per key and per chain', async () => {
    const [a, b] = k.chain.accounts;
    const common = k.chain.common;
    const data = { ...cases.legacy, nonce: 2000n };
    const first = signTxData(common, data, a.privateKey, a.address);
    const again = signTxData(common, { ...data }, a.privateKey, a.address);
    expect(again?.tx).toBe(first?.tx);
    // Another message, another key: signed anew, and each as @ethereumjs signs it.
    const other = signTxData(common, { ...data, value: data.value + 1n }, a.privateKey, a.address);
    expect(other?.tx).not.toBe(first?.tx);
    const byB = signTxData(common, data, b.privateKey, b.address);
    expect(byB?.tx).not.toBe(first?.tx);
    expect(byB?.tx.getSenderAddress().toString()).toBe(b.address.toString());
    const referenceB = createTx(data as Parameters<typeof createTx>[0], { common }).sign(b.privateKey);
    expect(bytesToHex(byB?.raw ?? new Uint8Array())).toBe(bytesToHex(referenceB.serialize()));
    // Another chain with the same id (its own Common): its own transaction object.
    const k2 = await createKernel({ plugins: rpcPlugins() });
    try {
      const elsewhere = signTxData(
        k2.chain.common,
        data,
        k2.chain.accounts[0].privateKey,
        k2.chain.accounts[0].address,
      );
      expect(elsewhere?.tx).not.toBe(first?.tx);
      expect(bytesToHex(elsewhere?.raw ?? new Uint8Array())).toBe(bytesToHex(first?.raw ?? new Uint8Array()));
    } finally {
      await k2.close();
    }
  });

  it('tells apart transactions that differ in any one signed field', () => {
    const account = k.chain.accounts[5];
    const common = k.chain.common;
    const long = new Uint8Array(3000).fill(1);
    const longer = long.slice();
    longer[2999] = 2;
    const variants: Record<string, unknown>[] = [
      cases.legacy,
      { ...cases.legacy, nonce: 8n },
      { ...cases.legacy, gasPrice: 0x9184e72a001n },
      { ...cases.legacy, gasLimit: 90_001n },
      { ...cases.legacy, to: undefined },
      { ...cases.legacy, value: 1n },
      { ...cases.legacy, value: 2n ** 48n - 1n },
      { ...cases.legacy, value: 2n ** 48n },
      { ...cases.legacy, nonce: 0n },
      { ...cases.legacy, nonce: 255n },
      { ...cases.legacy, nonce: 256n },
      { ...cases.legacy, data: Uint8Array.of(0xa9, 0x05, 0x9c, 0xbb, 0, 1, 3) },
      { ...cases.legacy, data: long },
      { ...cases.legacy, data: longer },
      { ...cases.legacy, type: 1, accessList: [] },
      cases['EIP-1559'],
      { ...cases['EIP-1559'], maxPriorityFeePerGas: 10n ** 9n + 1n },
      { ...cases['EIP-1559'], maxFeePerGas: 3n * 10n ** 9n + 1n },
    ];
    const seen = new Set<string>();
    for (const data of variants) {
      for (let twice = 0; twice < 2; twice++) {
        const signed = signTxData(common, data, account.privateKey, account.address);
        const reference = createTx(data as Parameters<typeof createTx>[0], { common }).sign(account.privateKey);
        expect(bytesToHex(signed?.raw ?? new Uint8Array())).toBe(bytesToHex(reference.serialize()));
        expect(bytesToHex(signed?.tx.hash() ?? new Uint8Array())).toBe(bytesToHex(reference.hash()));
        seen.add(bytesToHex(reference.hash()));
      }
    }
    expect(seen.size).toBe(variants.length);
  });

  it('keeps at most SIGNED_MEMO_SIZE transactions and SIGNED_MEMO_BYTES of encodings per chain, dropping the oldest', async () => {
    const k2 = await createKernel({ plugins: rpcPlugins() });
    try {
      const common = k2.chain.common;
      const [a, b] = k2.chain.accounts;
      const sign = (account: typeof a, nonce: bigint, data = base.data) =>
        signTxData(common, { ...cases.legacy, nonce, data }, account.privateKey, account.address)?.tx;
      const oldest = sign(a, 0n);
      const second = sign(b, 0n);
      for (let n = 1n; n < BigInt(SIGNED_MEMO_SIZE) - 1n; n++) sign(a, n);
      expect(sign(a, 0n)).toBe(oldest); // a hit: nothing added
      sign(a, BigInt(SIGNED_MEMO_SIZE)); // the one past the limit: the oldest goes
      expect(sign(b, 0n)).toBe(second);
      expect(sign(a, 0n)).not.toBe(oldest);
      // Large encodings: the bytes bound drops the oldest too.
      const big = new Uint8Array(40_000).fill(7);
      const first = sign(a, 10_000n, big);
      const last = 10_000n + BigInt(Math.ceil(SIGNED_MEMO_BYTES / 40_000));
      let newest = first;
      for (let n = 10_001n; n <= last; n++) newest = sign(a, n, big);
      expect(sign(a, last, big)).toBe(newest);
      expect(sign(a, 10_000n, big)).not.toBe(first);
    } finally {
      await k2.close();
    }
  });

  it('leaves to the usual path what it does not encode or what is invalid', () => {
    const { privateKey: key, address } = k.chain.accounts[0];
    const common = k.chain.common;
    const accessList = [{ address: to.toString(), storageKeys: [] }];
    expect(signTxData(common, { ...cases['EIP-1559'], accessList }, key, address)).toBeUndefined();
    expect(signTxData(common, { ...cases['EIP-1559'], type: 4, authorizationList: [] }, key, address)).toBeUndefined();
    expect(signTxData(common, { ...cases.legacy, chainId: 1n }, key, address)).toBeUndefined();
    // A fee cap below the tip: @ethereumjs's constructor refuses it, with its own message, on the usual path.
    expect(
      signTxData(common, { ...cases['EIP-1559'], maxPriorityFeePerGas: 10n, maxFeePerGas: 9n }, key, address),
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

describe('eth_sendTransaction after evm_revert', () => {
  it('sends the same transaction again, as ethers signs it, and mines it again', async () => {
    const account = k.chain.accounts[4];
    const from = account.address.toString();
    const request = { from, to: to.toString(), value: '0x7', gas: '0x5208' };
    const snapshot = await k.request<string>({ method: 'evm_snapshot' });
    const first = await k.request<string>({ method: 'eth_sendTransaction', params: [request] });
    const firstBlock = await k.request<string>({ method: 'eth_blockNumber' });
    expect(await k.request({ method: 'evm_revert', params: [snapshot] })).toBe(true);
    const again = await k.request<string>({ method: 'eth_sendTransaction', params: [request] });
    // Same nonce, same fields, same key: RFC 6979 makes it the same signed transaction.
    expect(again).toBe(first);
    const raw = await k.request<string>({ method: 'debug_getRawTransaction', params: [again] });
    const decoded = Transaction.from(raw);
    const wallet = new Wallet(bytesToHex(account.privateKey));
    const bySigner = await wallet.signTransaction({
      type: 0,
      chainId: 31337n,
      nonce: decoded.nonce,
      gasPrice: decoded.gasPrice,
      gasLimit: 0x5208n,
      to: to.toString(),
      value: 7n,
    });
    expect(raw).toBe(bySigner);
    const receipt = await k.request<{ status: string; blockNumber: string }>({
      method: 'eth_getTransactionReceipt',
      params: [again],
    });
    expect(receipt.status).toBe('0x1');
    expect(receipt.blockNumber).toBe(firstBlock);
    // Sent again without a revert: its nonce is used now, so it is a new transaction.
    const next = await k.request<string>({ method: 'eth_sendTransaction', params: [request] });
    expect(next).not.toBe(again);
  });
});

describe('a transaction signed again after evm_revert, on a different state', () => {
  it('runs on the state it meets, as on a node that never saw it', async () => {
    // Runtime SSTORE(0, CALLVALUE): its gas depends on what slot 0 holds when it runs.
    const runtime = '3460005500';
    // PUSH5 runtime, PUSH1 0, MSTORE, PUSH1 5, PUSH1 27, RETURN
    const initcode = `0x64${runtime}6000526005601bf3`;
    const run = async (kernel: Kernel, revertFirst: boolean) => {
      const [a, b, c] = kernel.chain.accounts.map((x) => x.address.toString());
      const send = (tx: Record<string, string>) =>
        kernel.request<string>({ method: 'eth_sendTransaction', params: [tx] });
      const receipt = (hash: string) =>
        kernel.request<{ status: string; gasUsed: string; contractAddress: string }>({
          method: 'eth_getTransactionReceipt',
          params: [hash],
        });
      const target = (await receipt(await send({ from: c, data: initcode, gas: '0x30000' }))).contractAddress;
      const transaction = { from: a, to: target, value: '0x1', gas: '0x20000' };
      let first: string | undefined;
      let firstGas: string | undefined;
      if (revertFirst) {
        const snapshot = await kernel.request<string>({ method: 'evm_snapshot' });
        first = await send(transaction); // slot 0: 0 -> 1
        firstGas = (await receipt(first)).gasUsed;
        await kernel.request({ method: 'evm_revert', params: [snapshot] });
      }
      await send({ from: b, to: target, value: '0x5', gas: '0x20000' }); // slot 0: 0 -> 5
      const hash = await send(transaction); // slot 0: 5 -> 1
      const slot = await kernel.request<string>({ method: 'eth_getStorageAt', params: [target, '0x0', 'latest'] });
      return { first, firstGas, hash, receipt: await receipt(hash), slot };
    };
    const fresh = await createKernel({ plugins: rpcPlugins() });
    const reverted = await createKernel({ plugins: rpcPlugins() });
    try {
      const expected = await run(fresh, false);
      const got = await run(reverted, true);
      expect(got.first).toBe(got.hash); // the same signed transaction both times
      expect(got.hash).toBe(expected.hash);
      expect(got.receipt.status).toBe('0x1');
      expect(got.receipt.gasUsed).toBe(expected.receipt.gasUsed);
      // The first run stored into an empty slot, which costs more: the state it met made the difference.
      expect(BigInt(got.firstGas ?? 0)).toBeGreaterThan(BigInt(got.receipt.gasUsed));
      expect(BigInt(got.slot)).toBe(1n);
      expect(got.slot).toBe(expected.slot);
    } finally {
      await fresh.close();
      await reverted.close();
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
