import {
  type KernelServices,
  type SubmitResult,
  failedTxError,
  nameCustomError,
  revertPcsOfTx,
  toData,
} from '@ashlar/core';
import type { TypedTransaction } from '@ethereumjs/tx';

/**
 * What a send answers: the hash; or, when automine mined the transaction and it failed, Hardhat's
 * error carrying the hash and the revert data (unless `throwOnTransactionFailures` is off, as
 * Anvil answers: the hash only). The transaction is mined either way. A custom error is named
 * from the called contract's ABI when a plugin knows it (the explorer's verified contracts), with
 * the Solidity line when its source map is known (the transaction replayed to find the REVERT).
 */
export function sendAnswer(
  services: KernelServices,
  result: SubmitResult,
  tx?: TypedTransaction,
): string | Promise<string> {
  const receipt = result.receipt;
  if (receipt?.error !== undefined && services.options.throwOnTransactionFailures)
    return failedAnswer(services, result, tx);
  // The hash at once, not a promise of it: the handler returning a promise made its own promise
  // wait extra microtask turns (every automined send).
  return toData(result.hash);
}

/** The error a failed mined transaction answers (always a rejected promise). */
async function failedAnswer(services: KernelServices, result: SubmitResult, tx?: TypedTransaction): Promise<string> {
  const receipt = result.receipt as NonNullable<SubmitResult['receipt']>;
  const known = services.knownContracts;
  const data = receipt.returnData;
  let named =
    receipt.error === 'revert' && tx && data ? nameCustomError(known, tx.to?.bytes, tx.data, data) : undefined;
  if (named && tx?.to && data && known.lookup(tx.to.toString())?.sourceLine) {
    const pcs = await revertPcsOfTx(services.chain, result.hash).catch(() => undefined);
    named = nameCustomError(known, tx.to.bytes, tx.data, data, pcs);
  }
  throw failedTxError(result.hash, receipt, named);
}
