import { bytesToHex } from '@ethereumjs/util';
import type { StoredBlock } from '../chain/types.js';
import type { ChainLog } from './ChainLog.js';
import type { EventBus } from './EventBus.js';

export type { ChainLog };

type Hex = `0x${string}`;

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
