import { isAshlarError } from './AshlarError.js';
import { type ErrorCode, ErrorCodes } from './codes.js';

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** JSON-RPC codes per EIP-1474 and geth: the single mapping from domain codes to wire codes. */
const WIRE_CODES: Record<ErrorCode, number> = {
  [ErrorCodes.PARSE_ERROR]: -32700,
  [ErrorCodes.INVALID_REQUEST]: -32600,
  [ErrorCodes.METHOD_NOT_FOUND]: -32601,
  [ErrorCodes.INVALID_PARAMS]: -32602,
  [ErrorCodes.INTERNAL]: -32603,
  [ErrorCodes.LIMIT_EXCEEDED]: -32005,
  // geth answers both with its default server error code
  [ErrorCodes.FILTER_NOT_FOUND]: -32000,
  [ErrorCodes.SUBSCRIPTION_NOT_FOUND]: -32000,
  [ErrorCodes.NONCE_TOO_LOW]: -32000,
  [ErrorCodes.NONCE_TOO_HIGH]: -32000,
  [ErrorCodes.INSUFFICIENT_FUNDS]: -32000,
  [ErrorCodes.INTRINSIC_GAS]: -32000,
  [ErrorCodes.GAS_LIMIT]: -32000,
  [ErrorCodes.FEE_CAP_TOO_LOW]: -32000,
  [ErrorCodes.TIP_ABOVE_FEE_CAP]: -32000,
  [ErrorCodes.UNDERPRICED]: -32000,
  [ErrorCodes.REPLACEMENT_UNDERPRICED]: -32000,
  [ErrorCodes.ALREADY_KNOWN]: -32000,
  [ErrorCodes.WRONG_CHAIN_ID]: -32000,
  [ErrorCodes.BAD_SIGNATURE]: -32000,
  [ErrorCodes.OVERSIZED]: -32000,
  [ErrorCodes.TX_TYPE_UNSUPPORTED]: -32000,
  [ErrorCodes.TX_DECODE]: -32602,
  [ErrorCodes.BLOB_SIDECAR]: -32000,
  [ErrorCodes.UNKNOWN_ACCOUNT]: -32000,
  [ErrorCodes.TX_NOT_MINED]: -32000,
  // Hardhat's node: a reverted send is its InternalError, other failures its -32000
  [ErrorCodes.TX_REVERTED]: -32603,
  [ErrorCodes.TX_FAILED]: -32000,
  [ErrorCodes.REVERTED]: 3,
  [ErrorCodes.EXECUTION]: -32000,
  [ErrorCodes.EXEC_TIMEOUT]: -32000,
  [ErrorCodes.ACCESS_UNAUTHORIZED]: -32000,
  // EIP-1474 "limit exceeded", as Infura answers a rate-limited client
  [ErrorCodes.ACCESS_RATE_LIMITED]: -32005,
  // execution-apis' eth_simulateV1 codes
  [ErrorCodes.SIM_NONCE_TOO_LOW]: -38010,
  [ErrorCodes.SIM_NONCE_TOO_HIGH]: -38011,
  [ErrorCodes.SIM_BASE_FEE_TOO_LOW]: -38012,
  [ErrorCodes.SIM_INTRINSIC_GAS]: -38013,
  [ErrorCodes.SIM_INSUFFICIENT_FUNDS]: -38014,
  [ErrorCodes.SIM_BLOCK_GAS_LIMIT]: -38015,
  [ErrorCodes.SIM_BLOCK_NUMBER_ORDER]: -38020,
  [ErrorCodes.SIM_BLOCK_TIMESTAMP_ORDER]: -38021,
  [ErrorCodes.SIM_MOVE_PRECOMPILE_SELF]: -38022,
  [ErrorCodes.SIM_TOO_MANY_BLOCKS]: -38026,
  [ErrorCodes.BLOCK_NOT_FOUND]: -32000,
  [ErrorCodes.GENESIS_MISMATCH]: -32603,
  [ErrorCodes.STORAGE]: -32603,
  // geth's server error code, not -32603: an upstream's failure is no bug of this node, and
  // `data` names the upstream, the request and the cause
  [ErrorCodes.FORK_UPSTREAM]: -32000,
  [ErrorCodes.PLUGIN_DUPLICATE]: -32603,
  [ErrorCodes.PLUGIN_MISSING_DEPENDENCY]: -32603,
  [ErrorCodes.PLUGIN_CYCLE]: -32603,
  [ErrorCodes.PLUGIN_SERVICE_IN_USE]: -32603,
  [ErrorCodes.METHOD_DUPLICATE]: -32603,
  [ErrorCodes.OPTIONS]: -32603,
  [ErrorCodes.CLOSED]: -32603,
  [ErrorCodes.VERIFICATION]: -32000,
};

export function wireCodeOf(code: ErrorCode): number {
  return WIRE_CODES[code];
}

/**
 * Whether a plugin may answer with this code: an integer outside JSON-RPC's reserved
 * -32768…-32000 block, or one of the spec's five codes, or the -32000…-32099 server range
 * (where EIP-1474's -32000…-32006 live). Anything else is a bug and becomes -32603.
 */
export function isAllowedWireCode(code: unknown): code is number {
  if (typeof code !== 'number' || !Number.isInteger(code)) return false;
  if (code > -32000 || code < -32768) return true;
  if (code >= -32099) return true;
  return code === -32700 || code === -32600 || code === -32601 || code === -32602 || code === -32603;
}

/** A thrown value that names its own wire code: an RpcRequestError, or any error with a numeric `code`. */
interface CodedError {
  code: number;
  message: string;
  data?: unknown;
  ashlarCode?: unknown;
}

function codedError(e: unknown): CodedError | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const c = e as Partial<CodedError>;
  return isAllowedWireCode(c.code) && typeof c.message === 'string' ? (c as CodedError) : undefined;
}

/**
 * Turns anything thrown by a handler into a JSON-RPC error object. An AshlarError maps through
 * the table above; an error that carries its own allowed numeric `code` (a plugin's
 * RpcRequestError) passes through with its `data`. Unknown errors become -32603 with their
 * message only: stack traces never leave the process.
 */
export function toRpcError(e: unknown): RpcErrorObject {
  if (isAshlarError(e)) {
    const out: RpcErrorObject = { code: WIRE_CODES[e.code] ?? -32603, message: e.message };
    if (e.data !== undefined) out.data = e.data;
    return out;
  }
  const coded = codedError(e);
  if (coded !== undefined) {
    const out: RpcErrorObject = { code: coded.code, message: coded.message || 'error' };
    if (coded.data !== undefined) out.data = coded.data;
    return out;
  }
  const message = e instanceof Error ? e.message : String(e);
  return { code: -32603, message: message || 'internal error' };
}

/**
 * The domain code of a thrown value, for in-process callers: an AshlarError's `ASHLAR_ERR_*`,
 * a plugin's own `ashlarCode`, or `ASHLAR_ERR_INTERNAL` for anything without a code.
 */
export function domainCodeOf(e: unknown): string | undefined {
  if (isAshlarError(e)) return e.code;
  const coded = codedError(e);
  if (coded !== undefined) return typeof coded.ashlarCode === 'string' ? coded.ashlarCode : undefined;
  return ErrorCodes.INTERNAL;
}
