import { EventEmitter } from 'eventemitter3';
import type { StoredBlock } from '../chain/types.js';
import type { PendingTx } from '../mempool/types.js';

/** Events a kernel emits. Listeners are fire-and-forget: a throwing listener never stops the chain. */
export interface KernelEvents {
  /** A block was committed to storage and is the new head. */
  block: [block: StoredBlock];
  /** A transaction entered the pool (pending or queued). */
  pendingTransaction: [tx: PendingTx];
  /** The head moved back: blocks above `toNumber` were removed (snapshot revert, reset). */
  revert: [info: { toNumber: bigint; removed: StoredBlock[] }];
  /** The kernel is closing. */
  close: [];
}

export class EventBus extends EventEmitter<KernelEvents> {}
