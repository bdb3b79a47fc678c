import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { Wallet, keccak256 } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../kernel/Kernel.js';
import { createKernel } from '../kernel/createKernel.js';
import { DECODED_MEMO_BYTES, DECODED_MEMO_SIZE } from './TxService.js';

let k: Kernel;
beforeAll(async () => {
  k = await createKernel();
});
afterAll(() => k.close());

const to = '0x00000000000000000000000000000000000000ab';
const walletOf = (kernel: Kernel, i: number) => new Wallet(bytesToHex(kernel.chain.accounts[i].privateKey));
const legacy = async (wallet: Wallet, chainId: bigint, nonce: number, data = '0x') =>
  hexToBytes(
    (await wallet.signTransaction({
      type: 0,
      chainId,
      nonce,
      to,
      data,
      gasLimit: 10_000_000n,
      gasPrice: 9n,
    })) as `0x${string}`,
  );

describe('TxService.decodeRaw of bytes decoded before', () => {
  it('answers the same transaction, and refuses what it refused before', async () => {
    const wallet = walletOf(k, 7);
    const raw = await legacy(wallet, 31337n, 0);
    const txs = k.txs;
    const tx = txs.decodeRaw(raw);
    expect(txs.decodeRaw(raw.slice())).toBe(tx);
    expect(txs.recoverSender(tx).toString()).toBe(wallet.address.toLowerCase());
    expect(bytesToHex(tx.hash())).toBe(keccak256(raw));
    // Another chain id: refused each time.
    const foreign = await legacy(wallet, 1n, 0);
    for (let i = 0; i < 2; i++) expect(() => txs.decodeRaw(foreign)).toThrow(/invalid chain id for signer/);
  });

  it('keeps at most DECODED_MEMO_SIZE transactions and DECODED_MEMO_BYTES of encodings', async () => {
    const kernel = await createKernel();
    try {
      const wallet = walletOf(kernel, 0);
      const txs = kernel.txs;
      const first = await legacy(wallet, 31337n, 0);
      const firstTx = txs.decodeRaw(first);
      for (let n = 1; n < DECODED_MEMO_SIZE; n++) txs.decodeRaw(await legacy(wallet, 31337n, n));
      expect(txs.decodeRaw(first)).toBe(firstTx); // still held: DECODED_MEMO_SIZE of them
      txs.decodeRaw(await legacy(wallet, 31337n, DECODED_MEMO_SIZE));
      expect(txs.decodeRaw(first)).not.toBe(firstTx);
      const big = `0x${'01'.repeat(100_000)}`;
      const bigFirst = await legacy(wallet, 31337n, 5_000, big);
      const bigTx = txs.decodeRaw(bigFirst);
      const last = 5_000 + Math.ceil(DECODED_MEMO_BYTES / 100_000);
      let newest = bigTx;
      for (let n = 5_001; n <= last; n++) newest = txs.decodeRaw(await legacy(wallet, 31337n, n, big));
      expect(txs.decodeRaw(await legacy(wallet, 31337n, last, big))).toBe(newest);
      expect(txs.decodeRaw(bigFirst)).not.toBe(bigTx);
    } finally {
      await kernel.close();
    }
  });

  it('lets the recovered key go once the sender is known, and recovers none again for the same bytes', async () => {
    const wallet = walletOf(k, 6);
    const raw = await legacy(wallet, 31337n, 0, '0x01');
    const txs = k.txs;
    const crypto = k.chain.common.customCrypto;
    const recover = crypto.ecdsaRecover;
    if (recover === undefined) throw new Error('the dev chain has a native ecdsaRecover');
    let recovered = 0;
    crypto.ecdsaRecover = (...args: Parameters<typeof recover>) => {
      recovered++;
      return recover(...args);
    };
    try {
      const tx = txs.decodeRaw(raw);
      expect(txs.recoverSender(tx).toString()).toBe(wallet.address.toLowerCase());
      expect((tx as unknown as { cache: { senderPubKey?: Uint8Array } }).cache.senderPubKey).toBeUndefined();
      // Sent again (the same bytes): the same transaction, its sender from the memo.
      const again = txs.decodeRaw(raw.slice());
      expect(again).toBe(tx);
      expect(txs.recoverSender(again).toString()).toBe(wallet.address.toLowerCase());
      expect(recovered).toBe(1);
    } finally {
      crypto.ecdsaRecover = recover;
    }
  });
});
