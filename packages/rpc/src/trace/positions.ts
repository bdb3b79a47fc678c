import { type StoredBlock, toData } from '@ashlar/core';
import type { TxContext } from '../debug/tracer.js';
import type { TracePosition } from './parityTrace.js';

/** Position fields of the traces of block `sb`'s transactions. */
export function positionIn(sb: StoredBlock): (ctx: TxContext) => TracePosition {
  const blockHash = toData(sb.hash);
  const txs = sb.block.transactions;
  return (ctx) => ({
    blockHash,
    blockNumber: Number(sb.number),
    transactionHash: toData(ctx.tx.hash()),
    transactionPosition: txs.indexOf(ctx.tx),
  });
}
