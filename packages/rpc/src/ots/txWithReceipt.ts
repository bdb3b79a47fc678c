import { type StoredBlock, toQuantity } from '@ashlar/core';
import { type RpcReceipt, type RpcTransaction, toRpcReceipt } from '../format/index.js';
import { minedTransaction } from '../shared/transactions.js';

/** A receipt as Otterscan's search methods return it: with the block's `timestamp`. */
export function receiptWithTimestamp(sb: StoredBlock, index: number): RpcReceipt & { timestamp: string } {
  return { ...toRpcReceipt(sb, index), timestamp: toQuantity(sb.block.header.timestamp) };
}

export function transactionAt(sb: StoredBlock, index: number): RpcTransaction {
  const tx = minedTransaction(sb, index);
  if (!tx) throw new RangeError(`no transaction ${index} in block ${sb.number}`);
  return tx;
}
