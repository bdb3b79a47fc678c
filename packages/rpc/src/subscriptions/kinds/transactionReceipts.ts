import { toData } from '@ashlar/core';
import { DecodeError, decodeArrayOf, decodeHash, decodeObject, optField } from '../../params/index.js';
import type { SubscriptionKind } from './types.js';

/** Most transaction hashes one subscription may name (geth's maxTxHashes). */
export const MAX_TX_HASHES = 200;

function decodeHashes(options: unknown): Set<string> | undefined {
  if (options === undefined || options === null) return undefined;
  const o = decodeObject(options, 'filters.TransactionReceiptsQuery');
  const hashes = optField(o, 'transactionHashes', (v) => decodeArrayOf(v, decodeHash, '[]common.Hash'));
  if (hashes === undefined || hashes.length === 0) return undefined;
  if (hashes.length > MAX_TX_HASHES) {
    throw new DecodeError(
      `exceed max number of transaction hashes allowed per transactionReceipts subscription (${hashes.length} > ${MAX_TX_HASHES})`,
    );
  }
  return new Set(hashes.map((h) => toData(h)));
}

/**
 * `transactionReceipts`: the receipts of each new block, in one notification per block, as
 * geth serves it; with `{ transactionHashes }` only those receipts, and nothing at all for a
 * block that holds none of them.
 */
export const transactionReceipts: SubscriptionKind = {
  prepare(options) {
    const wanted = decodeHashes(options);
    return (notify) => ({
      block(view) {
        const all = view.receipts();
        const out = wanted === undefined ? all : all.filter((r) => wanted.has(r.transactionHash));
        if (out.length > 0) notify(out);
      },
    });
  },
};
