import { bytesToBigInt, bytesToHex } from '@ethereumjs/util';
import type { StoredReceipt } from '../chain/types.js';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import type { NamedCustomError } from './customErrorText.js';
import { decodeRevertReason } from './decodeRevert.js';

const ERROR_SELECTOR = '0x08c379a0';
const PANIC_SELECTOR = '0x4e487b71';

/** Hardhat's explanation of each Solidity panic code (hardhat/internal/.../panic-errors). */
const HARDHAT_PANIC_REASONS: Record<number, string> = {
  1: 'Assertion error',
  17: 'Arithmetic operation overflowed outside of an unchecked block',
  18: 'Division or modulo division by zero',
  33: 'Tried to convert a value into an enum, but the value was too big or negative',
  34: 'Incorrectly encoded storage byte array',
  49: '.pop() was called on an empty array',
  50: 'Array accessed at an out-of-bounds or negative index',
  65: 'Too much memory was allocated, or an array was created that is too large',
  81: 'Called a zero-initialized variable of internal function type',
};

/**
 * Hardhat's text for a revert of a contract it has no sources for (its "unrecognized contract"
 * case): the reason string, the panic code explained, or the custom error's return data (its
 * selector first); no data at all is "without a reason string". A custom error named from the
 * contract's ABI (`named`) reads as Hardhat names it for a contract it compiled, followed by
 * where it was raised: `reverted with custom error 'Name(args)' (Contract.fn at 0x…)`.
 */
export function hardhatRevertText(data: Uint8Array, named?: NamedCustomError): string {
  const selector = data.length >= 4 ? bytesToHex(data.subarray(0, 4)) : '';
  const prefix = 'VM Exception while processing transaction: ';
  if (named) return `${prefix}reverted with custom error '${named.error}' (${named.where})`;
  if (selector === ERROR_SELECTOR) {
    const reason = decodeRevertReason(data);
    if (reason !== undefined) return `${prefix}reverted with reason string '${reason}'`;
  }
  if (selector === PANIC_SELECTOR && data.length >= 36) {
    const code = bytesToBigInt(data.subarray(4, 36));
    const reason = code < 256n ? HARDHAT_PANIC_REASONS[Number(code)] : undefined;
    return reason === undefined
      ? `${prefix}reverted with unknown panic code 0x${code.toString(16)}`
      : `${prefix}reverted with panic code 0x${code.toString(16)} (${reason})`;
  }
  if (data.length > 0) return `${prefix}reverted with an unrecognized custom error (return data: ${bytesToHex(data)})`;
  return 'Transaction reverted without a reason string';
}

/**
 * The error a send answers, as Hardhat's node does, when automine mined its transaction and it
 * failed: -32603 `Error: <revert text>` for a revert, -32000 `Transaction ran out of gas` and
 * the like otherwise; `data` is `{ message, txHash, data }` (the revert bytes), so
 * hardhat-chai-matchers and ethers find both the hash and the revert data. `named`: the custom
 * error as the called contract's ABI names it (see nameCustomError).
 */
export function failedTxError(hash: Uint8Array, receipt: StoredReceipt, named?: NamedCustomError): AshlarError {
  const returnData = receipt.returnData ?? new Uint8Array();
  const txHash = bytesToHex(hash);
  if (receipt.error === 'revert') {
    const message = `Error: ${hardhatRevertText(returnData, named)}`;
    return new AshlarError(ErrorCodes.TX_REVERTED, message, {
      data: { message, txHash, data: bytesToHex(returnData) },
    });
  }
  const message =
    receipt.error === 'out of gas' || receipt.error?.includes('out of gas')
      ? 'Transaction ran out of gas'
      : receipt.error === 'invalid opcode'
        ? 'VM Exception while processing transaction: invalid opcode'
        : `Transaction reverted: ${receipt.error ?? 'unknown error'}`;
  return new AshlarError(ErrorCodes.TX_FAILED, message, { data: { message, txHash, data: bytesToHex(returnData) } });
}
