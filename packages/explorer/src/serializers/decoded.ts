import { bytesToHex } from '@ethereumjs/util';
import type { Facts } from '../Explorer.js';
import { type DecodedCall, type DecodedLog, decodeError, decodeInput, decodeLog } from '../verify/abi.js';
import { hex } from './format.js';
import { methodOf } from './methods.js';

const abiOf = (address: Uint8Array | null | undefined, facts: Facts) =>
  address ? facts.sc?.abiOf(bytesToHex(address)) : undefined;

/**
 * `method` and `decoded_input` of a call: with the verified ABI of the callee (or of its proxy's
 * implementation) the function's name and arguments; else the known-selector name and null.
 */
export function callDecoding(
  to: Uint8Array | null | undefined,
  data: Uint8Array,
  facts: Facts,
): { method: string | null; decoded_input: DecodedCall | null } {
  const abi = abiOf(to, facts);
  const decoded = abi ? decodeInput(abi, data) : null;
  if (!decoded) return { method: methodOf(to, data), decoded_input: null };
  return { method: decoded.method_call.slice(0, decoded.method_call.indexOf('(')), decoded_input: decoded };
}

/**
 * `revert_reason`: the custom error's name and arguments when the callee's ABI declares it
 * (Blockscout's DecodedInput form), else `{ raw }`.
 */
export function decodedRevert(to: Uint8Array | null | undefined, data: Uint8Array, facts: Facts) {
  // As Blockscout: Solidity's own Error(string) and Panic(uint256) first, whoever reverted.
  const builtIn = decodeError(BUILT_IN_ERRORS, data);
  if (builtIn) return builtIn;
  const abi = abiOf(to, facts);
  const decoded = abi ? decodeError(abi, data) : null;
  return decoded ?? { raw: hex(data) };
}

/** The errors every Solidity contract can revert with (Blockscout's default error ABI). */
const BUILT_IN_ERRORS = [
  { type: 'error', name: 'Error', inputs: [{ name: 'reason', type: 'string' }] },
  { type: 'error', name: 'Panic', inputs: [{ name: 'errorCode', type: 'uint256' }] },
] as const;

/** A log's `decoded`, with the emitter's verified ABI; null without one. */
export function logDecoded(
  address: Uint8Array,
  topics: readonly Uint8Array[],
  data: Uint8Array,
  facts: Facts,
): DecodedLog | null {
  const abi = abiOf(address, facts);
  return abi ? decodeLog(abi, topics, data) : null;
}
