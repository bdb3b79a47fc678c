import type { Common } from '@ethereumjs/common';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { type Address, bytesToBigInt, concatBytes, utf8ToBytes } from '@ethereumjs/util';
import { keccak256 } from '../chain/nativeCrypto.js';

/** secp256k1's group order: a fake s stays in the lower half so EIP-2's check accepts the transaction. */
const HALF_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n / 2n;

/**
 * Accounts whose transactions the node accepts without a signature (hardhat_impersonateAccount,
 * anvil_autoImpersonateAccount). Held per kernel; a reset forgets them.
 */
export class Impersonation {
  private readonly accounts = new Set<string>();
  /** anvil_autoImpersonateAccount: every account is impersonated. */
  auto = false;

  add(address: Address): void {
    this.accounts.add(address.toString());
  }

  /** Stops impersonating; false when the account was not impersonated. */
  remove(address: Address): boolean {
    return this.accounts.delete(address.toString());
  }

  has(address: Address): boolean {
    return this.auto || this.accounts.has(address.toString());
  }

  clear(): void {
    this.accounts.clear();
    this.auto = false;
  }
}

/**
 * r and s taken from a hash of the sender: no key made them, but the transaction serialises,
 * decodes and hashes like a signed one; its hash differs per sender and per nonce and is the
 * same every time the same transaction is built.
 */
export function fakeSignature(from: Address): { r: bigint; s: bigint } {
  const key = from.toString();
  let sig = fakeSignatures.get(key);
  if (sig === undefined) {
    const r = (bytesToBigInt(keccak256(concatBytes(from.bytes, utf8ToBytes('r')))) % (HALF_N - 1n)) + 1n;
    const s = (bytesToBigInt(keccak256(concatBytes(from.bytes, utf8ToBytes('s')))) % (HALF_N - 1n)) + 1n;
    sig = { r, s };
    // A few impersonated accounts per suite; a bound all the same.
    if (fakeSignatures.size >= 4096) fakeSignatures.clear();
    fakeSignatures.set(key, sig);
  }
  return sig;
}

/** fakeSignature per sender (two hashes and two bigint divisions each send otherwise). */
const fakeSignatures = new Map<string, { r: bigint; s: bigint }>();

/**
 * A transaction of `from` carrying a fake signature, its sender set directly (as
 * buildUnsignedTx does for calls): nothing ever recovers it, since blocks store their senders.
 */
export function impersonatedTx(common: Common, data: Record<string, unknown>, from: Address): TypedTransaction {
  const { r, s } = fakeSignature(from);
  const type = Number(data.type ?? 0);
  const chainId = common.chainId();
  // Legacy transactions carry the chain id in v (EIP-155); typed ones a y-parity.
  const v = type === 0 ? chainId * 2n + 35n : 0n;
  const tx = createTx({ ...data, v, r, s } as Parameters<typeof createTx>[0], { common, freeze: false });
  (tx as { getSenderAddress: () => Address }).getSenderAddress = () => from;
  // Frozen as createTx leaves it by default: @ethereumjs then caches its hash and data fee
  // (submit, the block, its receipts and the index each ask for the hash).
  Object.freeze(tx);
  return tx;
}
