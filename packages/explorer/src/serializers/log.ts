import type { RawLog } from '@ashlar/core';
import type { Facts } from '../Explorer.js';
import { refOf } from './addressRef.js';
import { logDecoded } from './decoded.js';
import { hex, isoTime } from './format.js';

export interface LogView {
  log: RawLog;
  logIndex: number;
  block: bigint;
  blockHash: Uint8Array;
  timestamp: bigint;
  txHash: Uint8Array;
}

/**
 * A log as Blockscout serves it: four topic slots (null where the log has fewer), decoded with
 * the emitter's verified ABI when there is one. `tx_hash` is spec §2.5's name for Blockscout 10's
 * `transaction_hash`.
 */
export function logJson(v: LogView, facts: Facts) {
  const [address, topics, data] = v.log;
  const ref = refOf(address, facts);
  return {
    address: ref,
    smart_contract: ref,
    block_hash: hex(v.blockHash),
    block_number: Number(v.block),
    block_timestamp: isoTime(v.timestamp),
    tx_hash: hex(v.txHash),
    index: v.logIndex,
    topics: [0, 1, 2, 3].map((i) => (topics[i] ? hex(topics[i]) : null)),
    data: hex(data),
    decoded: logDecoded(address, topics, data, facts),
  };
}
