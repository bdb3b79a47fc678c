import type { PendingTx } from '@ashlar/core';
import { type Hex, type RpcTransaction, toRpcTransaction } from '../format/index.js';

/** A transaction that entered the pool, as subscriptions and filters send it; formatted once for all of them. */
export class PendingView {
  private txCache?: RpcTransaction;

  constructor(readonly ptx: PendingTx) {}

  get hash(): Hex {
    return this.ptx.hashHex as Hex;
  }

  /** The full transaction object in its pending form (block fields null). */
  transaction(): RpcTransaction {
    this.txCache ??= toRpcTransaction(this.ptx.tx, this.ptx.sender);
    return this.txCache;
  }
}
