import type { BlockHeader } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { unpaddedBytes as unpadded } from '../storage/unpaddedBytes.js';
import { rlpLengthOfLength, writeRlpHeader } from '../util/rlpLength.js';

/**
 * BlockHeader.raw() of @ethereumjs/block 10.1.3, field for field and under the same EIP
 * conditions, with the numbers converted by `unpadded`. A test compares it with raw() on every
 * hardfork.
 */
export function headerRaw(h: BlockHeader): Uint8Array[] {
  const items: Uint8Array[] = [
    h.parentHash,
    h.uncleHash,
    h.coinbase.bytes,
    h.stateRoot,
    h.transactionsTrie,
    h.receiptTrie,
    h.logsBloom,
    unpadded(h.difficulty),
    unpadded(h.number),
    unpadded(h.gasLimit),
    unpadded(h.gasUsed),
    unpadded(h.timestamp ?? 0n),
    h.extraData,
    h.mixHash,
    h.nonce,
  ];
  const c = h.common;
  if (c.isActivatedEIP(1559)) items.push(unpadded(h.baseFeePerGas as bigint));
  if (c.isActivatedEIP(4895)) items.push(h.withdrawalsRoot as Uint8Array);
  if (c.isActivatedEIP(4844)) items.push(unpadded(h.blobGasUsed as bigint), unpadded(h.excessBlobGas as bigint));
  if (c.isActivatedEIP(4788)) items.push(h.parentBeaconBlockRoot as Uint8Array);
  if (c.isActivatedEIP(7685)) items.push(h.requestsHash as Uint8Array);
  if (c.isActivatedEIP(7928)) items.push(h.blockAccessListHash as Uint8Array);
  if (c.isActivatedEIP(7843)) items.push(unpadded(h.slotNumber as bigint));
  return items;
}

const MAX_SAFE = 0x1f_ffff_ffff_ffffn;

/** The header's items, gathered per call (headerRlp runs to completion: no other call reuses it meanwhile). */
const items: (Uint8Array | bigint)[] = [];

/**
 * RLP.encode(headerRaw(h)) written straight into one buffer: no new list of items, no byte array
 * per number (a block's header had ~5, ~1.1 KB allocated per automined block), no generic walk of
 * the list. The same items in the same order, under the same EIP conditions; numbers are sized
 * and written from their value (a number past 2^53, or negative, takes the old path). A test
 * compares it with RLP.encode(header.raw()) on every hardfork. Two loops over the items, not
 * written out per field: the unrolled form was 3x the bytecode of headerRaw, which V8 compiles.
 */
export function headerRlp(h: BlockHeader): Uint8Array {
  const c = h.common;
  let n = 0;
  items[n++] = h.parentHash;
  items[n++] = h.uncleHash;
  items[n++] = h.coinbase.bytes;
  items[n++] = h.stateRoot;
  items[n++] = h.transactionsTrie;
  items[n++] = h.receiptTrie;
  items[n++] = h.logsBloom;
  items[n++] = h.difficulty;
  items[n++] = h.number;
  items[n++] = h.gasLimit;
  items[n++] = h.gasUsed;
  items[n++] = h.timestamp ?? 0n;
  items[n++] = h.extraData;
  items[n++] = h.mixHash;
  items[n++] = h.nonce;
  if (c.isActivatedEIP(1559)) items[n++] = h.baseFeePerGas as bigint;
  if (c.isActivatedEIP(4895)) items[n++] = h.withdrawalsRoot as Uint8Array;
  if (c.isActivatedEIP(4844)) {
    items[n++] = h.blobGasUsed as bigint;
    items[n++] = h.excessBlobGas as bigint;
  }
  if (c.isActivatedEIP(4788)) items[n++] = h.parentBeaconBlockRoot as Uint8Array;
  if (c.isActivatedEIP(7685)) items[n++] = h.requestsHash as Uint8Array;
  if (c.isActivatedEIP(7928)) items[n++] = h.blockAccessListHash as Uint8Array;
  if (c.isActivatedEIP(7843)) items[n++] = h.slotNumber as bigint;
  let payload = 0;
  for (let i = 0; i < n; i++) {
    const v = items[i];
    if (typeof v !== 'bigint') payload += bytesSize(v);
    else if (v < 0n || v > MAX_SAFE) return RLP.encode(headerRaw(h));
    else payload += numberSize(Number(v));
  }
  const out = new Uint8Array((payload < 56 ? 1 : 1 + rlpLengthOfLength(payload)) + payload);
  let o = writeRlpHeader(out, 0, payload, 0xc0, 0xf7);
  for (let i = 0; i < n; i++) {
    const v = items[i];
    o = typeof v === 'bigint' ? writeNumber(out, o, Number(v)) : writeBytes(out, o, v);
  }
  return out;
}

/** Encoded size of a byte string: itself when one byte below 0x80, else a length header and the bytes. */
function bytesSize(b: Uint8Array): number {
  const n = b.length;
  if (n === 1 && b[0] < 0x80) return 1;
  return n < 56 ? 1 + n : 1 + rlpLengthOfLength(n) + n;
}

function writeBytes(out: Uint8Array, o: number, b: Uint8Array): number {
  const n = b.length;
  if (n === 1 && b[0] < 0x80) {
    out[o] = b[0];
    return o + 1;
  }
  o = writeRlpHeader(out, o, n, 0x80, 0xb7);
  out.set(b, o);
  return o + n;
}

/** Bytes of `v` (below 2^53) without leading zeros: 0 for 0. */
function byteLength(v: number): number {
  let len = 0;
  for (let t = v; t > 0; t = Math.floor(t / 256)) len++;
  return len;
}

/** Encoded size of a number as its minimal big-endian bytes (0 is the empty string). */
function numberSize(v: number): number {
  return v > 0 && v < 0x80 ? 1 : 1 + byteLength(v);
}

function writeNumber(out: Uint8Array, o: number, v: number): number {
  if (v > 0 && v < 0x80) {
    out[o] = v;
    return o + 1;
  }
  const len = byteLength(v);
  out[o] = 0x80 + len;
  for (let i = len; i > 0; i--) {
    out[o + i] = v % 256;
    v = Math.floor(v / 256);
  }
  return o + 1 + len;
}
