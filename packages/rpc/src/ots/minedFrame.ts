import {
  AshlarError,
  type CallFrame,
  ErrorCodes,
  type KernelServices,
  type StoredBlock,
  blockCallFrames,
} from '@ashlar/core';

/** The call frames of a mined transaction (stored at mining, else replayed) and its block. */
export async function minedFrame(
  services: KernelServices,
  hash: Uint8Array,
): Promise<{ frame: CallFrame; sb: StoredBlock; index: number }> {
  const loc = await services.chain.getTransactionLocation(hash);
  if (!loc) throw new AshlarError(ErrorCodes.EXECUTION, 'transaction not found');
  const frames = await blockCallFrames(services.chain, loc.block, loc.index);
  const frame = frames[loc.index];
  if (!frame) throw new AshlarError(ErrorCodes.EXECUTION, 'transaction has no trace');
  return { frame, sb: loc.block, index: loc.index };
}
