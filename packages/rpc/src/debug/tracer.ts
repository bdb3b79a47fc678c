import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { RunTxResult, VM } from '@ethereumjs/vm';

/** What a tracer knows of the transaction it traces. */
export interface TxContext {
  tx: TypedTransaction;
  block: Block;
  /** Block-level index of the transaction's first log (geth's log `index` counts from the block's first). */
  firstLogIndex: number;
}

/**
 * One tracer run over one transaction by the replay (or by debug_traceCall): `begin` before
 * runTx (listeners on, pre-state read), `end` after it (the trace), `dispose` always (listeners off).
 */
export interface TxTracer<R = unknown> {
  begin(vm: VM, ctx: TxContext): Promise<void>;
  end(vm: VM, r: RunTxResult, ctx: TxContext): Promise<R>;
  dispose(vm: VM): void;
}
