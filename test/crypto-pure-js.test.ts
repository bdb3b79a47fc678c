/**
 * A whole node on the pure-JS crypto fallback (ASHLAR_PURE_JS_CRYPTO=1: @noble/hashes and
 * @noble/curves instead of the keccak and secp256k1 addons, as where no prebuilt binary loads),
 * checked against ethers: dev-account derivation, signing, sender recovery, the ECRECOVER
 * precompile and transaction hashes. cryptoBackends.test.ts compares the two implementations
 * byte for byte.
 */
import { AbiCoder, BrowserProvider, type Eip1193Provider, Transaction, Wallet, keccak256, verifyMessage } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Set before the node's modules load: the implementation is chosen once, when they do.
process.env.ASHLAR_PURE_JS_CRYPTO = '1';

const DEV_KEY_1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
let close: () => Promise<void>;
let provider: BrowserProvider;
let impl: { keccak: string; secp256k1: string };

beforeAll(async () => {
  const core = await import('@ashlar/core');
  const { createNode } = await import('ashlar');
  impl = core.cryptoImpl.impl;
  const node = await createNode();
  close = () => node.close();
  provider = new BrowserProvider(core.createProvider(node) as unknown as Eip1193Provider, 31337, {
    cacheTimeout: -1,
  });
});
afterAll(() => close?.());

describe('a node on pure-JS crypto', () => {
  it('runs @noble for keccak and secp256k1', () => {
    expect(impl).toEqual({ keccak: 'pure-js', secp256k1: 'pure-js' });
  });

  it('derives the well-known dev accounts', async () => {
    const accounts = await provider.send('eth_accounts', []);
    expect(accounts.slice(0, 2)).toEqual([
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    ]);
  });

  it('signs transactions and messages ethers verifies', async () => {
    const signer = await provider.getSigner(0);
    const sent = await signer.sendTransaction({ to: '0x00000000000000000000000000000000000000b1', value: 1n });
    expect((await sent.wait())?.status).toBe(1);
    const raw = await provider.send('debug_getRawTransaction', [sent.hash]);
    const parsed = Transaction.from(raw);
    expect(parsed.from).toBe(signer.address);
    expect(parsed.hash).toBe(sent.hash);
    expect(verifyMessage('hello', await signer.signMessage('hello'))).toBe(signer.address);
  });

  it('recovers the sender of a transaction ethers signed, under the hash ethers computes', async () => {
    const wallet = new Wallet(DEV_KEY_1);
    const raw = await wallet.signTransaction({
      type: 2,
      chainId: 31337,
      nonce: await provider.getTransactionCount(wallet.address),
      to: '0x00000000000000000000000000000000000000b2',
      value: 5n,
      gasLimit: 21_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1n,
    });
    const hash = await provider.send('eth_sendRawTransaction', [raw]);
    expect(hash).toBe(keccak256(raw));
    const tx = await provider.getTransaction(hash);
    expect(tx?.from).toBe(wallet.address);
  });

  it('answers the ECRECOVER precompile with the signer', async () => {
    const wallet = new Wallet(DEV_KEY_1);
    const digest = keccak256('0x1234');
    const sig = wallet.signingKey.sign(digest);
    const input = AbiCoder.defaultAbiCoder().encode(
      ['bytes32', 'uint8', 'bytes32', 'bytes32'],
      [digest, sig.v, sig.r, sig.s],
    );
    const out = await provider.call({ to: '0x0000000000000000000000000000000000000001', data: input });
    expect(AbiCoder.defaultAbiCoder().decode(['address'], out)[0]).toBe(wallet.address);
  });
});
