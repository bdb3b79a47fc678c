import type { EVM } from '@ethereumjs/evm';
import { runTxLean } from '../evm/leanRunTx.js';
import type { ChainService } from '../chain/ChainService.js';
import type { StoredBlock } from '../chain/types.js';
import { scratchVm } from '../exec/scratchVm.js';
import { CallFrameTracer } from './CallFrameTracer.js';
import type { CallFrame } from './callFrames.js';
import { applyBlockSystemCalls } from './systemCalls.js';

/**
 * The call frames of a block's transactions: the stored ones, or — for a block mined with the
 * chain option `callFrames` off — frames of the block re-executed on its parent's state in a
 * scratch VM (the chain is not touched). Transactions after the last wanted one are not run.
 * The block's system calls (EIP-4788, EIP-2935) are replayed first, as in rpc's debug replay.
 * The genesis has no frames.
 */
export async function blockCallFrames(
  chain: ChainService,
  sb: StoredBlock,
  upTo: number = sb.block.transactions.length - 1,
): Promise<(CallFrame | undefined)[]> {
  const stored = await chain.store.getCallFrames(sb);
  if (stored) return stored;
  return replayFrames(chain, sb, upTo);
}

/** Re-executes transactions 0..upTo of `sb` with a CallFrameTracer attached; one top frame per transaction. */
export async function replayFrames(
  chain: ChainService,
  sb: StoredBlock,
  upTo: number,
): Promise<(CallFrame | undefined)[]> {
  const txs = sb.block.transactions;
  if (sb.number === 0n || txs.length === 0) return [];
  const parent = await chain.getBlock(sb.number - 1n);
  if (!parent) return [];
  const header = sb.block.header;
  const start = (await chain.store.getPreStateRoot(sb)) ?? parent.block.header.stateRoot;
  const vm = await scratchVm(chain, start, {
    number: header.number,
    timestamp: header.timestamp,
  });
  await applyBlockSystemCalls(vm, header);
  const tracer = new CallFrameTracer(vm.evm as EVM);
  const out: (CallFrame | undefined)[] = [];
  tracer.attach();
  try {
    let gasUsed = 0n;
    for (let i = 0; i <= Math.min(upTo, txs.length - 1); i++) {
      const r = await runTxLean(vm, {
        tx: txs[i],
        block: sb.block,
        blockGasUsed: gasUsed,
        skipHardForkValidation: true,
      });
      gasUsed += r.blockGasSpent;
      out.push(tracer.take());
    }
  } finally {
    tracer.detach();
  }
  return out;
}
