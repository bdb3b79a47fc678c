import { fastTxFromRaw, publicKeyOf, signHash, unpaddedBytes } from '@ashlar/core';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { Address, bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, unpadBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';

/** A node-signed transaction, ready to submit, and its encoding (equal to `tx.serialize()`). */
export interface SignedTx {
  tx: TypedTransaction;
  raw: Uint8Array;
}

/**
 * The transaction `data` (requestTxData's fields) signed with `key` (the dev key of `sender`),
 * made in one construction: the message @ethereumjs signs (legacy EIP-155: rlp([nonce,
 * gasPrice, gas, to, value, data, chainId, 0, 0]); EIP-2930/1559: type byte ‖ rlp of the
 * unsigned fields) is encoded here, and the transaction is created once with its signature.
 * @ethereumjs's `sign` builds the unsigned transaction, then a second, signed one, and re-parses
 * the signature on @noble/curves: ~50 µs of each eth_sendTransaction. The encoding is made from
 * the same field bytes as the message (serialize() would convert every field again), and the
 * transaction comes back frozen with its hash and its sender known (runTx would recover the
 * sender from the signature just made, ~0.15 ms).
 *
 * Signing is deterministic (RFC 6979), so the same message signed with the same key is the same
 * transaction, byte for byte: a transaction signed before is answered from a small memo (see
 * signedTxMemo) instead of signing (~50 µs) and constructing it again. A test suite that reverts
 * to a fixture's snapshot before each test sends the same transactions from the same nonces.
 *
 * Undefined where this does not apply (pre-EIP-155 legacy, blob and set-code types, access
 * lists, a field of an unexpected type, fields @ethereumjs refuses): the caller signs the usual
 * way, which also names what is wrong.
 */
export function signTxData(
  common: Common,
  data: Record<string, unknown>,
  key: Uint8Array,
  sender: Address,
): SignedTx | undefined {
  const plain = plainOf(common, data);
  if (!plain) return undefined;
  const keccak = common.customCrypto.keccak256 ?? keccak_256;
  const memo = memoOf(common);
  const memoKey = memoKeyOf(common, key, plain, keccak);
  const known = memo.entries.get(memoKey);
  if (known !== undefined) return known;

  const unsigned = encodeUnsigned(plain);
  const msgHash = keccak(unsigned.message);
  const sig = signHash(msgHash, key) as unknown as Uint8Array; // [recovery id, r, s]
  const recovery = BigInt(sig[0]);
  const r = sig.subarray(1, 33);
  const s = sig.subarray(33, 65);
  const type = data.type as number;
  const v = type === 0 ? recovery + (data.chainId as bigint) * 2n + 35n : recovery;
  const raw = encodeSigned(type, unsigned.fields, bigIntToUnpaddedBytes(v), unpadBytes(r), unpadBytes(s));
  let tx: TypedTransaction;
  try {
    tx =
      fastTxFromRaw(raw, common) ??
      createTx({ ...data, v, r: bytesToBigInt(r), s: bytesToBigInt(s) } as Parameters<typeof createTx>[0], {
        common,
        freeze: false,
      });
  } catch {
    // Invalid fields: the usual path names them exactly as it always has.
    return undefined;
  }
  const cache = (tx as unknown as { cache: { senderPubKey?: Uint8Array; hash?: Uint8Array } }).cache;
  cache.senderPubKey = publicKeyOf(key);
  cache.hash = keccak(raw);
  // @ethereumjs's getSenderAddress hashes the public key again (on @noble/hashes) at every ask.
  (tx as unknown as { getSenderAddress: () => Address }).getSenderAddress = () => sender;
  // Frozen as createTx leaves it by default: @ethereumjs caches a frozen transaction's hash.
  Object.freeze(tx);
  const result: SignedTx = { tx, raw };
  remember(memo, memoKey, result);
  return result;
}

interface Unsigned {
  /** What is hashed and signed. */
  message: Uint8Array;
  /** The fields before the signature, as encoded in the message and in the signed transaction. */
  fields: (Uint8Array | Uint8Array[])[];
}

const EMPTY = new Uint8Array(0);

/** The fields of a transaction this module signs, checked. */
interface Plain {
  type: 0 | 1 | 2;
  chainId: bigint;
  nonce: bigint;
  /** gasPrice; EIP-1559: maxPriorityFeePerGas, maxFeePerGas. */
  fees: bigint[];
  gasLimit: bigint;
  /** Empty for a creation. */
  to: Uint8Array;
  value: bigint;
  input: Uint8Array;
}

function plainOf(common: Common, d: Record<string, unknown>): Plain | undefined {
  const { type, nonce, gasLimit, value, chainId, to } = d;
  const input = d.data;
  if (typeof nonce !== 'bigint' || typeof gasLimit !== 'bigint' || typeof value !== 'bigint') return undefined;
  if (typeof chainId !== 'bigint' || chainId !== common.chainId()) return undefined;
  if (!(input instanceof Uint8Array) || (to !== undefined && !(to instanceof Address))) return undefined;
  if (nonce < 0n || gasLimit < 0n || value < 0n) return undefined;
  let fees: bigint[];
  if (type === 0 || type === 1) {
    const gasPrice = d.gasPrice;
    if (typeof gasPrice !== 'bigint' || gasPrice < 0n) return undefined;
    if (type === 0 ? !common.gteHardfork('spuriousDragon') : !common.isActivatedEIP(2930)) return undefined;
    fees = [gasPrice];
  } else if (type === 2) {
    const tip = d.maxPriorityFeePerGas;
    const cap = d.maxFeePerGas;
    if (typeof tip !== 'bigint' || typeof cap !== 'bigint' || tip < 0n || cap < 0n) return undefined;
    if (!common.isActivatedEIP(1559)) return undefined;
    fees = [tip, cap];
  } else return undefined;
  // Access lists stay with @ethereumjs (their JSON form is converted there).
  const accessList = d.accessList;
  if (type !== 0 && accessList !== undefined && !(Array.isArray(accessList) && accessList.length === 0)) return;
  // Built whole (an object spread takes V8's generic copy, slower than the rest of a memo hit).
  return { type, chainId, nonce, fees, gasLimit, to: to ? to.bytes : EMPTY, value, input };
}

function encodeUnsigned(p: Plain): Unsigned {
  // bigIntToUnpaddedBytes without its hex string round trip (nonces, gas, fees, chain ids).
  const u = unpaddedBytes;
  const fees = p.fees.map((f) => u(f));
  if (p.type === 0) {
    const fields = [u(p.nonce), fees[0], u(p.gasLimit), p.to, u(p.value), p.input];
    return { message: RLP.encode([...fields, u(p.chainId), EMPTY, EMPTY]), fields };
  }
  const fields = [u(p.chainId), u(p.nonce), ...fees, u(p.gasLimit), p.to, u(p.value), p.input, []];
  return { message: typed(p.type, RLP.encode(fields)), fields };
}

/** The signed transaction's encoding: legacy rlp([...fields, v, r, s]); typed type ‖ rlp([...fields, yParity, r, s]). */
function encodeSigned(
  type: number,
  fields: (Uint8Array | Uint8Array[])[],
  v: Uint8Array,
  r: Uint8Array,
  s: Uint8Array,
): Uint8Array {
  const body = RLP.encode([...fields, v, r, s]);
  return type === 0 ? body : typed(type, body);
}

function typed(type: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length + 1);
  out[0] = type;
  out.set(body, 1);
  return out;
}

// ---------------------------------------------------------------------------------------------
// signedTxMemo: transactions signed before, per chain Common, by key and message hash

/** Transactions kept per chain (a fixture's worth of sends); the oldest go first past it. */
export const SIGNED_MEMO_SIZE = 1024;
/** Bytes of encodings kept per chain, so deployments of large contracts do not pile up. */
export const SIGNED_MEMO_BYTES = 4 * 1024 * 1024;

interface Memo {
  entries: Map<string, SignedTx>;
  bytes: number;
}

const memos = new WeakMap<Common, Memo>();
/** A short name per private key object for memo keys (the key itself never goes in a string). */
const keyIds = new WeakMap<Uint8Array, number>();
let nextKeyId = 0;

function memoOf(common: Common): Memo {
  let memo = memos.get(common);
  if (memo === undefined) {
    memo = { entries: new Map(), bytes: 0 };
    memos.set(common, memo);
  }
  return memo;
}

/**
 * What identifies a signed transaction without encoding and hashing its message: the key, the
 * hardfork (a transaction keeps a copy of the Common it was made with) and every signed field
 * (calldata past 1 KiB by its hash, so keys stay short).
 */
function memoKeyOf(common: Common, key: Uint8Array, p: Plain, keccak: (b: Uint8Array) => Uint8Array): string {
  let id = keyIds.get(key);
  if (id === undefined) {
    id = nextKeyId++;
    keyIds.set(key, id);
  }
  const input = p.input.length <= 1024 ? `d${bytesToHex(p.input)}` : `h${bytesToHex(keccak(p.input))}`;
  return `${id}:${common.hardfork()}:${p.type}:${p.chainId}:${p.nonce}:${p.fees.join('/')}:${p.gasLimit}:${bytesToHex(p.to)}:${p.value}:${input}`;
}

function remember(memo: Memo, memoKey: string, signed: SignedTx): void {
  const size = signed.raw.length;
  if (size > SIGNED_MEMO_BYTES / 4) return;
  const entries = memo.entries;
  while (entries.size >= SIGNED_MEMO_SIZE || (entries.size > 0 && memo.bytes + size > SIGNED_MEMO_BYTES)) {
    const [oldestKey, oldest] = entries.entries().next().value as [string, SignedTx];
    entries.delete(oldestKey);
    memo.bytes -= oldest.raw.length;
  }
  entries.set(memoKey, signed);
  memo.bytes += size;
}
