import {
  type Kernel,
  KnownContractsToken,
  type SubmitResult,
  failedTxError,
  nameCustomError,
  toData,
} from '@ashlar/core';
import type { TypedTransaction } from '@ethereumjs/tx';

/**
 * What a send answers: the hash; or, when automine mined the transaction and it failed, Hardhat's
 * error carrying the hash and the revert data (unless `throwOnTransactionFailures` is off, as
 * Anvil answers: the hash only). The transaction is mined either way. A custom error is named
 * from the called contract's ABI when a plugin knows it (the explorer's verified contracts).
 */
export function sendAnswer(kernel: Kernel, result: SubmitResult, tx?: TypedTransaction): string {
  const receipt = result.receipt;
  if (receipt?.error !== undefined && kernel.options.throwOnTransactionFailures) {
    const named =
      receipt.error === 'revert' && tx && receipt.returnData
        ? nameCustomError(kernel.resolve(KnownContractsToken), tx.to?.bytes, tx.data, receipt.returnData)
        : undefined;
    throw failedTxError(result.hash, receipt, named);
  }
  return toData(result.hash);
}
