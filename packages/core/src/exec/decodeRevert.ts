import { bytesToBigInt, bytesToHex } from '@ethereumjs/util';
import type { NamedCustomError } from './customErrorText.js';

const ERROR_SELECTOR = '0x08c379a0';
const PANIC_SELECTOR = '0x4e487b71';

/** Solidity's Panic codes and what they mean (from the Solidity docs). */
export const PANIC_REASONS: Record<number, string> = {
  0: 'generic compiler panic',
  1: 'assert(false)',
  17: 'arithmetic underflow or overflow',
  18: 'division or modulo by zero',
  33: 'enum overflow',
  34: 'invalid encoded storage byte array accessed',
  49: 'out-of-bounds array access; popping on an empty array',
  50: 'out-of-bounds access of an array or bytesN',
  65: 'out of memory',
  81: 'uninitialized function',
};

/**
 * Human text of revert data: the string of `Error(string)`, the meaning of `Panic(uint256)`,
 * or undefined for custom errors and empty data (they are returned raw in `error.data`).
 */
export function decodeRevertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = bytesToHex(data.subarray(0, 4));
  if (selector === ERROR_SELECTOR && data.length >= 68) {
    const offset = Number(bytesToBigInt(data.subarray(4, 36)));
    const start = 4 + offset;
    if (start + 32 > data.length) return undefined;
    const len = Number(bytesToBigInt(data.subarray(start, start + 32)));
    if (start + 32 + len > data.length) return undefined;
    return new TextDecoder().decode(data.subarray(start + 32, start + 32 + len));
  }
  if (selector === PANIC_SELECTOR && data.length >= 36) {
    const code = Number(bytesToBigInt(data.subarray(4, 36)));
    const meaning = PANIC_REASONS[code] ?? 'unknown panic code';
    return `panic: ${meaning} (0x${code.toString(16).padStart(2, '0')})`;
  }
  return undefined;
}

/**
 * geth's message: `execution reverted` or `execution reverted: <reason>`; a custom error the
 * called contract's ABI names reads `execution reverted: custom error 'Name(args)' (Contract.fn at 0x…)`.
 */
export function revertMessage(data: Uint8Array, named?: NamedCustomError): string {
  if (named) return `execution reverted: custom error '${named.error}' (${named.where})`;
  const reason = decodeRevertReason(data);
  return reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`;
}
