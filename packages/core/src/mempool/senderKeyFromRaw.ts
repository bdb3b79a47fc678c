import { Capability, type TypedTransaction } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { rlpLengthOfLength, writeRlpHeader } from '../util/rlpLength.js';

/** secp256k1n / 2: a larger s is refused from Homestead on (EIP-2). */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/**
 * Recovers the sender's public key of a transaction decoded from `raw` (its canonical encoding)
 * and caches it on the transaction, as @ethereumjs's getSenderPublicKey does: the message it
 * signs is cut from the received bytes (the fields before v, r, s; a legacy EIP-155 one
 * followed by chainId, 0, 0) instead of converting every field back to bytes and encoding
 * them again, and r and s are read from them too (bigint → hex → bytes, twice, in stock).
 * Leaves the transaction alone where anything is out of the ordinary (no recovery function, a
 * high s, a v that names no recovery id, an encoding it does not walk, a signature that
 * recovers nothing): @ethereumjs then recovers it, or throws its usual error.
 */
export function primeSenderKey(tx: TypedTransaction, raw: Uint8Array): void {
  if ((tx as unknown as { cache: { senderPubKey?: Uint8Array } }).cache.senderPubKey !== undefined) return;
  const common = tx.common;
  const recover = common.customCrypto.ecdsaRecover;
  const keccak = common.customCrypto.keccak256;
  const { v, s } = tx;
  if (recover === undefined || keccak === undefined || v === undefined || s === undefined) return;
  if (s > HALF_N && common.gteHardfork('homestead')) return;
  const typed = tx.type !== 0;
  const eip155 = !typed && tx.supports(Capability.EIP155ReplayProtection);
  const chainId = common.chainId();
  const recid = typed ? v : v === 27n || v === 28n ? v - 27n : eip155 ? v - (chainId * 2n + 35n) : -1n;
  if (recid !== 0n && recid !== 1n) return;
  const items = itemStarts(raw, typed ? 1 : 0);
  if (items === undefined || items.length < 4) return;
  const n = items.length - 1; // the last entry is the list's end
  const fieldsEnd = items[n - 3];
  const r = payload(raw, items[n - 2], items[n - 1]);
  const sBytes = payload(raw, items[n - 1], items[n]);
  if (r === undefined || sBytes === undefined || r.length > 32 || sBytes.length > 32) return;
  const tail = eip155 ? [0x80, 0x80] : [];
  const chainIdItem = eip155 ? encodeBytes(bigIntToUnpaddedBytes(chainId)) : new Uint8Array(0);
  const fields = raw.subarray(items[0], fieldsEnd);
  const payloadLength = fields.length + chainIdItem.length + tail.length;
  const prefix = typed ? 1 : 0;
  const message = new Uint8Array(prefix + headerLength(payloadLength) + payloadLength);
  if (typed) message[0] = raw[0];
  let o = writeRlpHeader(message, prefix, payloadLength, 0xc0, 0xf7);
  message.set(fields, o);
  o += fields.length;
  message.set(chainIdItem, o);
  o += chainIdItem.length;
  message.set(tail, o);
  const sig = new Uint8Array(64);
  sig.set(r, 32 - r.length);
  sig.set(sBytes, 64 - sBytes.length);
  let publicKey: Uint8Array;
  try {
    publicKey = recover(sig, Number(recid), keccak(message)).slice(1);
  } catch {
    return;
  }
  (tx as unknown as { cache: { senderPubKey?: Uint8Array } }).cache.senderPubKey = publicKey;
}

function headerLength(payloadLength: number): number {
  return payloadLength < 56 ? 1 : 1 + rlpLengthOfLength(payloadLength);
}

/** A byte string's RLP item. */
function encodeBytes(b: Uint8Array): Uint8Array {
  if (b.length === 1 && b[0] < 0x80) return b;
  const out = new Uint8Array(headerLength(b.length) + b.length);
  out.set(b, writeRlpHeader(out, 0, b.length, 0x80, 0xb7));
  return out;
}

/** Where an item's header ends and its payload begins, and where it ends; undefined past `end`. */
function span(buf: Uint8Array, at: number, end: number): [number, number] | undefined {
  if (at >= end) return undefined;
  const b = buf[at];
  if (b < 0x80) return [at, at + 1];
  // Short and long strings and lists share one arithmetic (a transfer's list is long, its items
  // short): a long string (an ERC-20 call's data) then meets no operation without feedback.
  const list = b >= 0xc0;
  const short = b <= (list ? 0xf7 : 0xb7);
  let start = at + 1;
  let length = b - (list ? 0xc0 : 0x80);
  if (!short) {
    const lengthOfLength = b - (list ? 0xf7 : 0xb7);
    length = 0;
    for (let i = 1; i <= lengthOfLength; i++) length = length * 256 + (buf[at + i] ?? 0);
    start += lengthOfLength;
  }
  return start + length <= end ? [start, start + length] : undefined;
}

/** The start of every item of the list at `at` (which must span the rest of `raw`), then its end. */
function itemStarts(raw: Uint8Array, at: number): number[] | undefined {
  if (raw[at] < 0xc0) return undefined;
  const list = span(raw, at, raw.length);
  if (list === undefined || list[1] !== raw.length) return undefined;
  const starts: number[] = [];
  let p = list[0];
  while (p < list[1]) {
    starts.push(p);
    const item = span(raw, p, list[1]);
    if (item === undefined) return undefined;
    p = item[1];
  }
  starts.push(p);
  return starts;
}

/** The payload of the byte-string item between `from` and `to`; undefined for a list. */
function payload(raw: Uint8Array, from: number, to: number): Uint8Array | undefined {
  if (raw[from] >= 0xc0) return undefined;
  const item = span(raw, from, to);
  return item && raw.subarray(item[0], item[1]);
}
