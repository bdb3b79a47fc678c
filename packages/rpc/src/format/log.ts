import { type RawLog, type StoredBlock, toData, toQuantity } from '@ashlar/core';
import type { Hex, RpcLog } from './types.js';

/** Where a log sits: its block, transaction, and index among all logs of the block. */
export interface LogPosition {
  blockHash: Uint8Array;
  blockNumber: bigint;
  blockTimestamp: bigint;
  transactionHash: Uint8Array;
  transactionIndex: number;
  /** Index within the block, counting the logs of earlier receipts. */
  logIndex: number;
}

/** Block-level values encoded once and shared by all logs/receipts of a block. */
export interface BlockHexContext {
  blockHash: Hex;
  blockNumber: Hex;
  blockTimestamp: Hex;
}

export function blockHexContext(sb: StoredBlock): BlockHexContext {
  return {
    blockHash: toData(sb.hash),
    blockNumber: toQuantity(sb.number),
    blockTimestamp: toQuantity(sb.block.header.timestamp),
  };
}

/** Internal fast path: all block/tx values already hex. */
export function formatLog(
  [address, topics, data]: RawLog,
  ctx: BlockHexContext,
  transactionHash: Hex,
  transactionIndex: Hex,
  logIndex: number,
  removed: boolean,
): RpcLog {
  return {
    address: toData(address),
    topics: topics.map((t) => toData(t)),
    data: toData(data),
    blockNumber: ctx.blockNumber,
    transactionHash,
    transactionIndex,
    blockHash: ctx.blockHash,
    blockTimestamp: ctx.blockTimestamp,
    logIndex: toQuantity(logIndex),
    removed,
  };
}

/** One log object as geth returns it (`removed` is true only for logs of reorged-out blocks). */
export function toRpcLog(log: RawLog, pos: LogPosition, removed = false): RpcLog {
  return formatLog(
    log,
    {
      blockHash: toData(pos.blockHash),
      blockNumber: toQuantity(pos.blockNumber),
      blockTimestamp: toQuantity(pos.blockTimestamp),
    },
    toData(pos.transactionHash),
    toQuantity(pos.transactionIndex),
    pos.logIndex,
    removed,
  );
}

/**
 * All logs of a block in order, with block-wide log indexes. `filter` sees the raw log
 * (and its transaction index) before anything is encoded, so eth_getLogs only pays for matches.
 */
export function toRpcBlockLogs(
  sb: StoredBlock,
  filter?: (log: RawLog, transactionIndex: number) => boolean,
  removed = false,
): RpcLog[] {
  const out: RpcLog[] = [];
  let ctx: BlockHexContext | undefined;
  let logIndex = 0;
  const txs = sb.block.transactions;
  for (let i = 0; i < sb.receipts.length; i++) {
    const logs = sb.receipts[i].logs;
    let txHash: Hex | undefined;
    let txIndex: Hex | undefined;
    for (const log of logs) {
      if (filter === undefined || filter(log, i)) {
        ctx ??= blockHexContext(sb);
        txHash ??= toData(txs[i].hash());
        txIndex ??= toQuantity(i);
        out.push(formatLog(log, ctx, txHash, txIndex, logIndex, removed));
      }
      logIndex++;
    }
  }
  return out;
}
