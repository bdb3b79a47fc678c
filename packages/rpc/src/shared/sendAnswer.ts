import { type Kernel, type SubmitResult, failedTxError, toData } from '@ashlar/core';

/**
 * What a send answers: the hash; or, when automine mined the transaction and it failed, Hardhat's
 * error carrying the hash and the revert data (unless `throwOnTransactionFailures` is off, as
 * Anvil answers: the hash only). The transaction is mined either way.
 */
export function sendAnswer(kernel: Kernel, result: SubmitResult): string {
  const receipt = result.receipt;
  if (receipt?.error !== undefined && kernel.options.throwOnTransactionFailures) {
    throw failedTxError(result.hash, receipt);
  }
  return toData(result.hash);
}
