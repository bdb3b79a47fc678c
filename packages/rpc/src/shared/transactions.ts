import type { StoredBlock } from '@ashlar/core';
import { toRpcTransaction } from '../format/index.js';
import type { RpcTransaction } from '../format/index.js';

/** The mined transaction at `index` of `sb` in its RPC shape, or null. */
export function minedTransaction(sb: StoredBlock, index: number): RpcTransaction | null {
  const tx = sb.block.transactions[index];
  if (!tx) return null;
  return toRpcTransaction(tx, sb.senders[index], {
    blockHash: sb.hash,
    blockNumber: sb.number,
    index,
    blockTimestamp: sb.block.header.timestamp,
    baseFee: sb.block.header.baseFeePerGas,
  });
}
