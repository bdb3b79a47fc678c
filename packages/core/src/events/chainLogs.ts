import { bytesToHex } from '@ethereumjs/util';
import type { StoredBlock } from '../chain/types.js';
import type { EventBus } from './EventBus.js';

type Hex = `0x${string}`;

/** A log as a plugin reads it: decoded from the receipt's byte tuple, with where it was emitted. */
export interface ChainLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: bigint;
  blockHash: Hex;
  transactionHash: Hex;
  /** Position of the transaction in its block. */
  transactionIndex: number;
  /** Position of the log in its block (across transactions), as eth_getLogs numbers it. */
  logIndex: number;
}

/** Every log of a block, in order (addresses lower-case hex). */
export function logsOf(sb: StoredBlock): ChainLog[] {
  const out: ChainLog[] = [];
  const blockHash = bytesToHex(sb.hash) as Hex;
  let logIndex = 0;
  for (let t = 0; t < sb.receipts.length; t++) {
    const logs = sb.receipts[t].logs;
    if (logs.length === 0) continue;
    const transactionHash = bytesToHex(sb.block.transactions[t].hash()) as Hex;
    for (const [address, topics, data] of logs) {
      out.push({
        address: bytesToHex(address) as Hex,
        topics: topics.map((x) => bytesToHex(x) as Hex),
        data: bytesToHex(data) as Hex,
        blockNumber: sb.number,
        blockHash,
        transactionHash,
        transactionIndex: t,
        logIndex: logIndex++,
      });
    }
  }
  return out;
}

/**
 * Emits `logs` after each `block` that has logs, decoded only while someone listens: a node
 * without `logs` listeners pays one listener count per block.
 */
export function emitDecodedLogs(events: EventBus): void {
  events.on('block', (sb) => {
    if (events.listenerCount('logs') === 0) return;
    const logs = logsOf(sb);
    if (logs.length > 0) events.emit('logs', logs, sb);
  });
}
