import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';
import { unpaddedBytes } from '../storage/unpaddedBytes.js';
import type { RawLog, StoredReceipt } from './types.js';

const EMPTY = new Uint8Array(0);
const enc = new TextEncoder();
const dec = new TextDecoder();

const big = (n: bigint | undefined): Uint8Array => (n === undefined ? EMPTY : unpaddedBytes(n));

/** Receipts of one block as one RLP list: one read returns all of them. */
export function encodeReceipts(receipts: StoredReceipt[]): Uint8Array {
  return RLP.encode(
    receipts.map((r) => [
      r.status === undefined ? EMPTY : Uint8Array.of(r.status + 1),
      r.root ?? EMPTY,
      big(r.cumulativeGasUsed),
      big(r.gasUsed),
      r.logs,
      r.bloom,
      r.contractAddress ?? EMPTY,
      big(r.effectiveGasPrice),
      r.blobGasUsed === undefined ? EMPTY : Uint8Array.of(1, ...bigIntToUnpaddedBytes(r.blobGasUsed)),
      r.blobGasPrice === undefined ? EMPTY : Uint8Array.of(1, ...bigIntToUnpaddedBytes(r.blobGasPrice)),
      r.error === undefined ? EMPTY : enc.encode(r.error),
      r.returnData ?? EMPTY,
    ]),
  );
}

const optBig = (b: Uint8Array): bigint | undefined => (b.length === 0 ? undefined : bytesToBigInt(b.subarray(1)));

export function decodeReceipts(bytes: Uint8Array): StoredReceipt[] {
  const list = RLP.decode(bytes) as unknown as Uint8Array[][];
  return list.map((f) => {
    const r: StoredReceipt = {
      cumulativeGasUsed: bytesToBigInt(f[2]),
      gasUsed: bytesToBigInt(f[3]),
      logs: f[4] as unknown as RawLog[],
      bloom: f[5],
      effectiveGasPrice: bytesToBigInt(f[7]),
    };
    if (f[0].length > 0) r.status = (f[0][0] - 1) as 0 | 1;
    if (f[1].length > 0) r.root = f[1];
    if (f[6].length > 0) r.contractAddress = f[6];
    const bgu = optBig(f[8]);
    if (bgu !== undefined) r.blobGasUsed = bgu;
    const bgp = optBig(f[9]);
    if (bgp !== undefined) r.blobGasPrice = bgp;
    if (f[10].length > 0) r.error = dec.decode(f[10]);
    if (f[11].length > 0) r.returnData = f[11];
    return r;
  });
}
