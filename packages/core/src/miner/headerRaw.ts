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

/**
 * RLP.encode(headerRaw(h)) written straight into one buffer: no list of items, no byte array per
 * number (a block's header had ~5, ~1.1 KB allocated per automined block), no generic walk of
 * the list. The same items in the same order, under the same EIP conditions; a test compares it
 * with RLP.encode(header.raw()) on every hardfork.
 */
export function headerRlp(h: BlockHeader): Uint8Array {
  const c = h.common;
  const london = c.isActivatedEIP(1559);
  const shanghai = c.isActivatedEIP(4895);
  const cancun = c.isActivatedEIP(4844);
  const beaconRoot = c.isActivatedEIP(4788);
  const requests = c.isActivatedEIP(7685);
  const accessList = c.isActivatedEIP(7928);
  const slot = c.isActivatedEIP(7843);
  // A number past 2^53 is written from its bytes (rare: every field of a dev chain is below).
  if (
    h.difficulty > MAX_SAFE ||
    h.number > MAX_SAFE ||
    h.gasLimit > MAX_SAFE ||
    h.gasUsed > MAX_SAFE ||
    (h.timestamp ?? 0n) > MAX_SAFE ||
    (london && (h.baseFeePerGas as bigint) > MAX_SAFE) ||
    (cancun && ((h.blobGasUsed as bigint) > MAX_SAFE || (h.excessBlobGas as bigint) > MAX_SAFE)) ||
    (slot && (h.slotNumber as bigint) > MAX_SAFE)
  )
    return RLP.encode(headerRaw(h));
  const difficulty = Number(h.difficulty);
  const number = Number(h.number);
  const gasLimit = Number(h.gasLimit);
  const gasUsed = Number(h.gasUsed);
  const timestamp = Number(h.timestamp ?? 0n);
  const baseFee = london ? Number(h.baseFeePerGas as bigint) : 0;
  const blobGasUsed = cancun ? Number(h.blobGasUsed as bigint) : 0;
  const excessBlobGas = cancun ? Number(h.excessBlobGas as bigint) : 0;
  const slotNumber = slot ? Number(h.slotNumber as bigint) : 0;
  let payload =
    bytesSize(h.parentHash) +
    bytesSize(h.uncleHash) +
    bytesSize(h.coinbase.bytes) +
    bytesSize(h.stateRoot) +
    bytesSize(h.transactionsTrie) +
    bytesSize(h.receiptTrie) +
    bytesSize(h.logsBloom) +
    numberSize(difficulty) +
    numberSize(number) +
    numberSize(gasLimit) +
    numberSize(gasUsed) +
    numberSize(timestamp) +
    bytesSize(h.extraData) +
    bytesSize(h.mixHash) +
    bytesSize(h.nonce);
  if (london) payload += numberSize(baseFee);
  if (shanghai) payload += bytesSize(h.withdrawalsRoot as Uint8Array);
  if (cancun) payload += numberSize(blobGasUsed) + numberSize(excessBlobGas);
  if (beaconRoot) payload += bytesSize(h.parentBeaconBlockRoot as Uint8Array);
  if (requests) payload += bytesSize(h.requestsHash as Uint8Array);
  if (accessList) payload += bytesSize(h.blockAccessListHash as Uint8Array);
  if (slot) payload += numberSize(slotNumber);
  const out = new Uint8Array((payload < 56 ? 1 : 1 + rlpLengthOfLength(payload)) + payload);
  let o = writeRlpHeader(out, 0, payload, 0xc0, 0xf7);
  o = writeBytes(out, o, h.parentHash);
  o = writeBytes(out, o, h.uncleHash);
  o = writeBytes(out, o, h.coinbase.bytes);
  o = writeBytes(out, o, h.stateRoot);
  o = writeBytes(out, o, h.transactionsTrie);
  o = writeBytes(out, o, h.receiptTrie);
  o = writeBytes(out, o, h.logsBloom);
  o = writeNumber(out, o, difficulty);
  o = writeNumber(out, o, number);
  o = writeNumber(out, o, gasLimit);
  o = writeNumber(out, o, gasUsed);
  o = writeNumber(out, o, timestamp);
  o = writeBytes(out, o, h.extraData);
  o = writeBytes(out, o, h.mixHash);
  o = writeBytes(out, o, h.nonce);
  if (london) o = writeNumber(out, o, baseFee);
  if (shanghai) o = writeBytes(out, o, h.withdrawalsRoot as Uint8Array);
  if (cancun) o = writeNumber(out, writeNumber(out, o, blobGasUsed), excessBlobGas);
  if (beaconRoot) o = writeBytes(out, o, h.parentBeaconBlockRoot as Uint8Array);
  if (requests) o = writeBytes(out, o, h.requestsHash as Uint8Array);
  if (accessList) o = writeBytes(out, o, h.blockAccessListHash as Uint8Array);
  if (slot) writeNumber(out, o, slotNumber);
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
