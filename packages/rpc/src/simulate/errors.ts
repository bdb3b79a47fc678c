import { AshlarError, ErrorCodes } from '@ashlar/core';

/**
 * An @ethereumjs runTx rejection as eth_simulateV1's error (geth's txValidationError codes):
 * the whole request fails with it.
 */
export function simulationError(e: unknown, txNonce: bigint, stateNonce: bigint): AshlarError {
  const raw = e instanceof Error ? e.message : String(e);
  const msg = raw
    .split(' -> ')[0]
    .split('\n')[0]
    .replace(/ \(block.*$/, '');
  if (/correct nonce/.test(msg)) {
    return txNonce < stateNonce
      ? new AshlarError(ErrorCodes.SIM_NONCE_TOO_LOW, `nonce too low: tx ${txNonce} state ${stateNonce}`)
      : new AshlarError(ErrorCodes.SIM_NONCE_TOO_HIGH, `nonce too high: tx ${txNonce} state ${stateNonce}`);
  }
  if (/baseFeePerGas/.test(msg))
    return new AshlarError(ErrorCodes.SIM_BASE_FEE_TOO_LOW, `max fee per gas less than block base fee: ${msg}`);
  if (/INTRINSIC_GAS|intrinsic|base fee exceeds gas limit|minimum gas limit/i.test(msg))
    return new AshlarError(ErrorCodes.SIM_INTRINSIC_GAS, `intrinsic gas too low: ${msg}`);
  if (/enough funds|insufficient/i.test(msg))
    return new AshlarError(ErrorCodes.SIM_INSUFFICIENT_FUNDS, `insufficient funds for gas * price + value: ${msg}`);
  if (/nonce.*(max|2\^64)/i.test(msg)) return new AshlarError(ErrorCodes.INTERNAL, `nonce has max value: ${msg}`);
  return new AshlarError(ErrorCodes.EXECUTION, msg);
}
