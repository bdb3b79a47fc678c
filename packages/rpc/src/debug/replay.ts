import {
  AshlarError,
  ErrorCodes,
  type KernelServices,
  type StoredBlock,
  applyBlockSystemCalls,
  scratchVm,
  toData,
} from '@ashlar/core';
import { runTx } from '@ethereumjs/vm';
import { timeLimitMs, underTimeLimit } from '../shared/timeLimit.js';
import type { TxTracer } from './tracer.js';

export interface TracedTx<R> {
  txHash: string;
  result: R;
}

/**
 * Re-executes a block's transactions on its parent's state (in a scratch VM: the chain is not
 * touched) and traces those `wanted` selects, each with a tracer of its own from `makeTracer`
 * (struct logger, callTracer, prestateTracer, Parity traces: one replay serves them all).
 * Transactions before the last wanted one run untraced, so the traced ones see the state they
 * saw when mined, after the block's system calls (EIP-4788 beacon root, EIP-2935 history), so a
 * transaction reading those contracts' newest slots sees what it saw.
 * The whole replay runs under the node's call timeout, or the tracer's shorter `timeoutMs`.
 */
export async function traceBlock<R>(
  services: KernelServices,
  sb: StoredBlock,
  makeTracer: (index: number) => TxTracer<R>,
  wanted: (index: number) => boolean = () => true,
  timeoutMs?: number,
): Promise<TracedTx<R>[]> {
  if (sb.number === 0n) throw new AshlarError(ErrorCodes.EXECUTION, 'genesis is not traceable');
  const parent = await services.chain.getBlock(sb.number - 1n);
  if (!parent) throw new AshlarError(ErrorCodes.BLOCK_NOT_FOUND, `parent of block #${sb.number} not found`);
  const header = sb.block.header;
  // Dev state edits between the parent and this block are in the state the block was built on.
  const start = (await services.chain.store.getPreStateRoot(sb)) ?? parent.block.header.stateRoot;
  const vm = await scratchVm(
    services.chain,
    start,
    { number: header.number, timestamp: header.timestamp },
    { caches: true },
  );
  const txs = sb.block.transactions;
  let last = -1;
  for (let i = 0; i < txs.length; i++) if (wanted(i)) last = i;
  const out: TracedTx<R>[] = [];
  let gasUsed = 0n;
  let firstLogIndex = 0;
  await underTimeLimit(vm, timeLimitMs(services, timeoutMs), async () => {
    if (last >= 0) await applyBlockSystemCalls(vm, header);
    for (let i = 0; i <= last; i++) {
      const tx = txs[i];
      const ctx = { tx, block: sb.block, firstLogIndex };
      const tracer = wanted(i) ? makeTracer(i) : undefined;
      try {
        await tracer?.begin(vm, ctx);
        const r = await runTx(vm, { tx, block: sb.block, blockGasUsed: gasUsed, skipHardForkValidation: true });
        gasUsed += r.blockGasSpent;
        firstLogIndex += r.receipt.logs.length;
        if (tracer) out.push({ txHash: toData(tx.hash()), result: await tracer.end(vm, r, ctx) });
      } finally {
        tracer?.dispose(vm);
      }
    }
  });
  return out;
}

/** The trace of the mined transaction `hash` (its block replayed up to it). */
export async function traceMinedTx<R>(
  services: KernelServices,
  hash: Uint8Array,
  makeTracer: () => TxTracer<R>,
  timeoutMs?: number,
): Promise<R> {
  const loc = await services.chain.getTransactionLocation(hash);
  if (!loc) throw new AshlarError(ErrorCodes.EXECUTION, 'transaction not found');
  const [trace] = await traceBlock(services, loc.block, makeTracer, (i) => i === loc.index, timeoutMs);
  return trace.result;
}
