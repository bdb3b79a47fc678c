import { AshlarError, type CallFrame, ErrorCodes, type Kernel, type StoredBlock, blockCallFrames } from '@ashlar/core';

/** The call frames of a mined transaction (stored at mining, else replayed) and its block. */
export async function minedFrame(
  kernel: Kernel,
  hash: Uint8Array,
): Promise<{ frame: CallFrame; sb: StoredBlock; index: number }> {
  const loc = await kernel.chain.getTransactionLocation(hash);
  if (!loc) throw new AshlarError(ErrorCodes.EXECUTION, 'transaction not found');
  const frames = await blockCallFrames(kernel.chain, loc.block, loc.index);
  const frame = frames[loc.index];
  if (!frame) throw new AshlarError(ErrorCodes.EXECUTION, 'transaction has no trace');
  return { frame, sb: loc.block, index: loc.index };
}
