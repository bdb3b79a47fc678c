import { AshlarError, ErrorCodes } from '@ashlar/core';

/**
 * A verification that failed for a reason the user can act on (bad input, missing compiler,
 * bytecode that differs): the routes answer 422 with its message, the Etherscan API `status 0`.
 */
export class VerificationError extends AshlarError {}

export function verificationFailed(message: string): VerificationError {
  return new VerificationError(ErrorCodes.VERIFICATION, message);
}
