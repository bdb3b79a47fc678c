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
 * the emitter's verified ABI when there is one. Spec §2.5's `tx_hash` and Blockscout 10's
 * `transaction_hash` carry one value.
 */
export function logJson(v: LogView, facts: Facts) {
  const [address, topics, data] = v.log;
  const ref = refOf(address, facts);
  const txHash = hex(v.txHash);
  return {
    address: ref,
    smart_contract: ref,
    block_hash: hex(v.blockHash),
    block_number: Number(v.block),
    block_timestamp: isoTime(v.timestamp),
    tx_hash: txHash,
    transaction_hash: txHash,
    index: v.logIndex,
    topics: [0, 1, 2, 3].map((i) => (topics[i] ? hex(topics[i]) : null)),
    data: hex(data),
    decoded: logDecoded(address, topics, data, facts),
  };
}
