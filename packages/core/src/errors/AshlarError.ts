import type { ErrorCode } from './codes.js';

const BRAND = Symbol.for('ashlar.error');

/**
 * The one error class services throw. Identified by a brand, not instanceof, so errors
 * from a second copy of the package (nested node_modules) are still recognised.
 */
export class AshlarError extends Error {
  readonly [BRAND] = true;
  readonly code: ErrorCode;
  /** Extra data sent on the wire as `error.data` (e.g. revert bytes). */
  readonly data: unknown;

  constructor(code: ErrorCode, message: string, options?: { data?: unknown; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AshlarError';
    this.code = code;
    this.data = options?.data;
  }
}

export function isAshlarError(e: unknown): e is AshlarError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}
