import type { StoredBlock, StoredReceipt } from '../chain/types.js';
import type { LogContext } from '../storage/ChainStore.js';
import { toData, toQuantity } from '../util/hex.js';

type Hex = `0x${string}`;

/**
 * One log with every value eth_getLogs answers already in hex: a query over cached blocks
 * copies strings instead of encoding bytes. Strings of one block or transaction are shared.
 */
export interface HexLog {
  /** Lower-case, as geth answers it. */
  readonly address: Hex;
  readonly topics: readonly Hex[];
  readonly data: Hex;
  readonly transactionHash: Hex;
  readonly transactionIndex: Hex;
  /** Position among all logs of the block. */
  readonly logIndex: Hex;
}

/** The logs of one block, in order, with the block's own values in hex. */
export interface HexBlockLogs {
  readonly number: bigint;
  readonly blockHash: Hex;
  readonly blockNumber: Hex;
  readonly blockTimestamp: Hex;
  readonly logs: readonly HexLog[];
}

/** Shared hex of small indexes (transaction and log positions), made once. */
const SMALL = Array.from({ length: 1024 }, (_, i) => toQuantity(i));
const quantity = (i: number): Hex => (i < SMALL.length ? SMALL[i] : toQuantity(i));

function render(
  number: bigint,
  hash: Uint8Array,
  timestamp: bigint,
  receipts: readonly StoredReceipt[],
  txHash: (i: number) => Uint8Array,
): HexBlockLogs {
  const logs: HexLog[] = [];
  let logIndex = 0;
  for (let i = 0; i < receipts.length; i++) {
    const raw = receipts[i].logs;
    if (raw.length === 0) continue;
    const transactionHash = toData(txHash(i));
    const transactionIndex = quantity(i);
    // Indexed reads, not destructuring (the iterator protocol per log in bytecode).
    for (let l = 0; l < raw.length; l++) {
      const address = raw[l][0];
      const topics = raw[l][1];
      const data = raw[l][2];
      const hexTopics: Hex[] = new Array(topics.length);
      for (let t = 0; t < topics.length; t++) hexTopics[t] = toData(topics[t]);
      logs.push({
        address: toData(address),
        topics: hexTopics,
        data: toData(data),
        transactionHash,
        transactionIndex,
        logIndex: quantity(logIndex++),
      });
    }
  }
  return {
    number,
    blockHash: toData(hash),
    blockNumber: toQuantity(number),
    blockTimestamp: toQuantity(timestamp),
    logs,
  };
}

/** The hex logs of a decoded block. */
export function hexLogsOfBlock(sb: StoredBlock): HexBlockLogs {
  const txs = sb.block.transactions;
  return render(sb.number, sb.hash, sb.block.header.timestamp, sb.receipts, (i) => txs[i].hash());
}

/** The hex logs of a block known by its log context and receipts (no block decode). */
export function hexLogsOfContext(ctx: LogContext, receipts: readonly StoredReceipt[]): HexBlockLogs {
  return render(ctx.number, ctx.hash, ctx.timestamp, receipts, (i) => ctx.txHashes[i]);
}

/** How many logs a block holds (what the hex-log cache is bounded by). */
export function logCount(receipts: readonly StoredReceipt[]): number {
  let n = 0;
  for (const r of receipts) n += r.logs.length;
  return n;
}
