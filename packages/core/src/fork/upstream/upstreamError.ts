import { AshlarError } from '../../errors/AshlarError.js';
import { ErrorCodes } from '../../errors/codes.js';

/** The JSON-RPC error an upstream answered with, kept as it came. */
export interface UpstreamRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface UpstreamFailure {
  /** The upstream URL without credentials (redactUrl). */
  upstream: string;
  method: string;
  params: unknown[];
  /** HTTP attempts made for this call. */
  attempts: number;
  /** Why the last attempt failed: `HTTP 503`, `timeout after 20000 ms`, `connection error: ECONNRESET` … */
  cause: string;
  upstreamError?: UpstreamRpcError;
}

const MAX_PARAMS_TEXT = 300;

/** `eth_getStorageAt(0xab…,0x10,0x5)`: the request as a reader recognises it, cut to a readable length. */
export function describeCall(method: string, params: unknown[]): string {
  const text = params.map((p) => (typeof p === 'string' ? p : JSON.stringify(p, bigintSafe))).join(',');
  return `${method}(${text.length > MAX_PARAMS_TEXT ? `${text.slice(0, MAX_PARAMS_TEXT)}…` : text})`;
}

function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `0x${value.toString(16)}` : value;
}

/** After the retries: `upstream https://host/ failed eth_getBalance(0x…,0x5) after 5 retries: HTTP 503`. */
export function exhaustedError(f: UpstreamFailure): AshlarError {
  const retries = f.attempts - 1;
  const after = retries === 0 ? '' : ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}`;
  return new AshlarError(
    ErrorCodes.FORK_UPSTREAM,
    `upstream ${f.upstream} failed ${describeCall(f.method, f.params)}${after}: ${f.cause}`,
    { data: failureData(f) },
  );
}

/** A real answer that is an error (invalid params, execution reverted …): not retried. */
export function answeredError(f: UpstreamFailure & { upstreamError: UpstreamRpcError }): AshlarError {
  return new AshlarError(
    ErrorCodes.FORK_UPSTREAM,
    `upstream ${f.upstream} answered ${describeCall(f.method, f.params)} with error ${f.upstreamError.code}: ${f.upstreamError.message}`,
    { data: failureData(f) },
  );
}

export function closedError(upstream: string, method: string, params: unknown[]): AshlarError {
  return new AshlarError(
    ErrorCodes.FORK_UPSTREAM,
    `upstream ${upstream} is closed: ${describeCall(method, params)} was not answered`,
    { data: { upstream, method, params, attempts: 0, cause: 'closed' } },
  );
}

function failureData(f: UpstreamFailure): Record<string, unknown> {
  const data: Record<string, unknown> = {
    upstream: f.upstream,
    method: f.method,
    params: f.params,
    attempts: f.attempts,
    cause: f.cause,
  };
  if (f.upstreamError !== undefined) data.upstreamError = f.upstreamError;
  return data;
}
