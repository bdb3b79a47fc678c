import type { StoredReceipt } from '@ashlar/core';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, concatBytes } from '@ethereumjs/util';

/**
 * A receipt's consensus encoding (what the receipts trie holds and geth's MarshalBinary gives):
 * rlp([status or pre-Byzantium state root, cumulative gas, bloom, logs]), prefixed with the
 * transaction type for typed transactions (EIP-2718).
 */
export function encodeReceipt(r: StoredReceipt, txType: number): Uint8Array {
  const postState = r.root ?? (r.status === 1 ? Uint8Array.of(1) : new Uint8Array(0));
  const body = RLP.encode([postState, bigIntToUnpaddedBytes(r.cumulativeGasUsed), r.bloom, r.logs]);
  return txType === 0 ? body : concatBytes(Uint8Array.of(txType), body);
}
