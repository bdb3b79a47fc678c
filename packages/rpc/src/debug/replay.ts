import { AshlarError, ErrorCodes, type Kernel, type StoredBlock, scratchVm, toData } from '@ashlar/core';
import { runTx } from '@ethereumjs/vm';
import { StructLogger, type TraceConfig, type TxTrace } from './structLogger.js';

/**
 * Re-executes a block's transactions on its parent's state (in a scratch VM: the chain is not
 * touched) and traces those `wanted` selects. Transactions before the last wanted one run
 * untraced, so the traced ones see the state they saw when mined. The block's system calls
 * (EIP-4788 beacon root, EIP-2935 history) are not replayed: only a transaction reading those
 * two contracts' newest slots could trace differently.
 */
export async function traceBlock(
  kernel: Kernel,
  sb: StoredBlock,
  config: TraceConfig,
  wanted: (index: number) => boolean = () => true,
): Promise<{ txHash: string; result: TxTrace }[]> {
  if (sb.number === 0n) throw new AshlarError(ErrorCodes.EXECUTION, 'genesis is not traceable');
  const parent = await kernel.chain.getBlock(sb.number - 1n);
  if (!parent) throw new AshlarError(ErrorCodes.BLOCK_NOT_FOUND, `parent of block #${sb.number} not found`);
  const header = sb.block.header;
  const vm = await scratchVm(kernel.chain, parent.block.header.stateRoot, {
    number: header.number,
    timestamp: header.timestamp,
  });
  const txs = sb.block.transactions;
  let last = -1;
  for (let i = 0; i < txs.length; i++) if (wanted(i)) last = i;
  const out: { txHash: string; result: TxTrace }[] = [];
  let gasUsed = 0n;
  for (let i = 0; i <= last; i++) {
    const tx = txs[i];
    const logger = wanted(i) ? new StructLogger(config) : undefined;
    if (logger) {
      vm.evm.events?.on('step', logger.onStep);
      vm.evm.events?.on('afterMessage', logger.onAfterMessage);
    }
    try {
      const r = await runTx(vm, { tx, block: sb.block, blockGasUsed: gasUsed, skipHardForkValidation: true });
      gasUsed += r.totalGasSpent;
      if (logger) out.push({ txHash: toData(tx.hash()), result: logger.result(r) });
    } finally {
      if (logger) {
        vm.evm.events?.off('step', logger.onStep);
        vm.evm.events?.off('afterMessage', logger.onAfterMessage);
      }
    }
  }
  return out;
}
