import { type TypedTransaction, createTxFromRLP } from '@ethereumjs/tx';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { Transaction, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HARDFORK, createDevCommon } from '../chain/chainCommon.js';
import { installFastRlp } from '../util/fastRlp.js';
import { primeSenderKey } from './senderKeyFromRaw.js';

installFastRlp();
const common = createDevCommon(31337n, DEFAULT_HARDFORK);
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const wallet = new Wallet('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const to = '0x00000000000000000000000000000000000000ab';

const decode = (raw: string) => createTxFromRLP(hexToBytes(raw as `0x${string}`), { common });
const cache = (tx: TypedTransaction) => (tx as unknown as { cache: { senderPubKey?: Uint8Array } }).cache;

/** Signed by ethers (an independent signer), each shape the message cutting must handle. */
async function signedShapes(): Promise<Record<string, string>> {
  const data = (n: number) => bytesToHex(Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) % 256));
  const base = { nonce: 3, gasLimit: 100_000n, to, value: 10n ** 18n };
  const legacy = { ...base, type: 0, gasPrice: 10n ** 10n, chainId: 31337n };
  const dynamic = { ...base, type: 2, maxFeePerGas: 3n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n, chainId: 31337n };
  const accessList = [{ address: to, storageKeys: [`0x${'00'.repeat(31)}01`, `0x${'ff'.repeat(32)}`] }];
  const auth = await wallet.authorize({ address: to, nonce: 9n, chainId: 31337n });
  const shapes: Record<string, Parameters<Wallet['signTransaction']>[0]> = {
    'legacy EIP-155, no data': legacy,
    'legacy EIP-155, 40 bytes (a short list)': { ...legacy, gasLimit: 21_000n, value: 0n, data: data(1) },
    'legacy EIP-155, 300 bytes of data': { ...legacy, data: data(300) },
    'legacy EIP-155, nonce 0, creation': { ...legacy, nonce: 0, to: null, data: data(100) },
    'legacy EIP-155, 70 KB of data (3-byte lengths)': { ...legacy, data: data(70_000) },
    'legacy before EIP-155 (v 27/28)': { ...legacy, chainId: 0n },
    'EIP-2930 with an access list': { ...legacy, type: 1, accessList, data: data(60) },
    'EIP-1559': { ...dynamic, data: data(68) },
    'EIP-1559 creation, one byte < 0x80': { ...dynamic, to: null, data: '0x01', value: 0n },
    'EIP-7702': { ...dynamic, type: 4, authorizationList: [auth] },
  };
  const out: Record<string, string> = {};
  for (const [name, tx] of Object.entries(shapes)) out[name] = await wallet.signTransaction(tx);
  return out;
}

describe('primeSenderKey', () => {
  it('caches the public key @ethereumjs recovers, for every transaction shape', async () => {
    for (const [name, raw] of Object.entries(await signedShapes())) {
      const tx = decode(raw);
      primeSenderKey(tx, hexToBytes(raw as `0x${string}`));
      expect(cache(tx).senderPubKey, name).toBeDefined();
      const stock = decode(raw).getSenderPublicKey();
      expect(bytesToHex(cache(tx).senderPubKey as Uint8Array), name).toBe(bytesToHex(stock));
      expect(tx.getSenderAddress().toString(), name).toBe(wallet.address.toLowerCase());
    }
  });

  it('leaves a high s and a signature that recovers nothing to @ethereumjs, which refuses them', async () => {
    // Legacy: its constructor leaves the high-s check to recovery (typed ones refuse it at once).
    const raw = await wallet.signTransaction({ type: 0, to, gasLimit: 21_000n, gasPrice: 9n, chainId: 31337n });
    const fields = RLP.decode(hexToBytes(raw as `0x${string}`)) as Uint8Array[];
    const resigned = (v: bigint, r: bigint, s: bigint) =>
      bytesToHex(RLP.encode([...fields.slice(0, -3), ...[v, r, s].map((x) => bigIntToUnpaddedBytes(x))]));
    const [v, r, s] = fields.slice(-3).map((b) => bytesToBigInt(b));
    expect(Transaction.from(resigned(v, r, s)).from).toBe(wallet.address);
    // s' = n - s with the other parity is valid ECDSA for the same key, but refused from Homestead on.
    const high = resigned(v % 2n === 0n ? v - 1n : v + 1n, r, N - s);
    // r past the group order: nothing recovers.
    const badR = resigned(v, N + 1n, s);
    for (const [name, bad, message] of [
      ['high s', high, /s-values greater than secp256k1n\/2/],
      ['r past n', badR, /Invalid Signature/],
    ] as const) {
      const tx = decode(bad);
      primeSenderKey(tx, hexToBytes(bad as `0x${string}`));
      expect(cache(tx).senderPubKey, name).toBeUndefined();
      expect(() => tx.getSenderPublicKey(), name).toThrow(message);
    }
  });
});
