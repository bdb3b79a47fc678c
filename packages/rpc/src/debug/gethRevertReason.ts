import { PANIC_REASONS, decodeRevertReason } from '@ashlar/core';
import { bytesToBigInt, bytesToHex } from '@ethereumjs/util';

const ERROR_SELECTOR = '0x08c379a0';
const PANIC_SELECTOR = '0x4e487b71';

/**
 * geth's `abi.UnpackRevert`, as its callTracer fills `revertReason`: the text of `Error(string)`,
 * the meaning of `Panic(uint256)` (geth's wording: "unknown panic code: 0x…" when it has none),
 * undefined for anything else (custom errors stay in `output`).
 */
export function gethRevertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = bytesToHex(data.subarray(0, 4));
  if (selector === ERROR_SELECTOR) return decodeRevertReason(data);
  if (selector === PANIC_SELECTOR && data.length >= 36) {
    const code = bytesToBigInt(data.subarray(4, 36));
    // geth says "generic panic" where the Solidity docs say "generic compiler panic".
    if (code === 0n) return 'generic panic';
    return PANIC_REASONS[Number(code)] ?? `unknown panic code: 0x${code.toString(16)}`;
  }
  return undefined;
}
