import { EventEmitter } from 'eventemitter3';
import type { StoredBlock } from '../chain/types.js';
import type { PendingTx } from '../mempool/types.js';
import type { ConsoleEvent } from '../console/ConsoleCapture.js';
import type { ChainLog } from './ChainLog.js';

/** Events a kernel emits. Listeners are fire-and-forget: a throwing listener never stops the chain. */
export interface KernelEvents {
  /** A block was committed to storage and is the new head. */
  block: [block: StoredBlock];
  /** Right after `block`, when the block has logs: every log, decoded, with its transaction hash and indexes. */
  logs: [logs: ChainLog[], block: StoredBlock];
  /** A transaction entered the pool (pending or queued). */
  pendingTransaction: [tx: PendingTx];
  /** The head moved back: blocks above `toNumber` were removed (snapshot revert, reset). */
  revert: [info: { toNumber: bigint; removed: StoredBlock[] }];
  /** A contract called console.sol's log: once per mined transaction's line, and per eth_call's. */
  console: [event: ConsoleEvent];
  /** The kernel is closing. */
  close: [];
}

export class EventBus extends EventEmitter<KernelEvents> {}
