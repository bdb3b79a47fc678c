import type { EVM } from '@ethereumjs/evm';
import { runTxLean } from '../evm/leanRunTx.js';
import type { ChainService } from '../chain/ChainService.js';
import { applyBlockSystemCalls } from '../trace/systemCalls.js';
import { withRevertPcs } from './revertPc.js';
import { scratchVm } from './scratchVm.js';

/**
 * The last pcs (REVERT first) the called contract ran in a mined transaction that reverted: its
 * block replayed up to it on the parent's state in a scratch VM (the chain is not touched), as
 * debug replays do. Only asked for a send's error when the contract's source lines are known.
 */
export async function revertPcsOfTx(chain: ChainService, hash: Uint8Array): Promise<number[] | undefined> {
  const loc = await chain.getTransactionLocation(hash);
  if (!loc || loc.block.number === 0n) return undefined;
  const sb = loc.block;
  const parent = await chain.getBlock(sb.number - 1n);
  if (!parent) return undefined;
  const header = sb.block.header;
  const start = (await chain.store.getPreStateRoot(sb)) ?? parent.block.header.stateRoot;
  const vm = await scratchVm(chain, start, { number: header.number, timestamp: header.timestamp });
  await applyBlockSystemCalls(vm, header);
  const txs = sb.block.transactions;
  let gasUsed = 0n;
  for (let i = 0; i < loc.index; i++) {
    const r = await runTxLean(vm, { tx: txs[i], block: sb.block, blockGasUsed: gasUsed, skipHardForkValidation: true });
    gasUsed += r.blockGasSpent;
  }
  const { pcs } = await withRevertPcs(vm.evm as EVM, true, () =>
    runTxLean(vm, { tx: txs[loc.index], block: sb.block, blockGasUsed: gasUsed, skipHardForkValidation: true }),
  );
  return pcs;
}
