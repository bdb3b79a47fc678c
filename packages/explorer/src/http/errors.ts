import type { RestResponse } from '@ashlar/core';

/**
 * A request the explorer answers with an error, thrown from anywhere below a route and turned
 * into Blockscout's body by `route()`: handlers read straight through, no status plumbing.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof body === 'object' && body !== null && 'message' in body ? String(body.message) : `HTTP ${status}`);
  }
}

const NOT_FOUND = Object.freeze({ message: 'Not found' });

/** 404 `{"message":"Not found"}`, as Blockscout answers an unknown block, transaction or token. */
export function notFound(): HttpError {
  return new HttpError(404, NOT_FOUND);
}

/**
 * 422 as Blockscout's parameter validation answers it (OpenApiSpex `JsonErrorResponse`): the
 * pointer names the parameter (`/address_hash_param`, `/block_number` …).
 */
export function invalidParam(param: string, detail: string): HttpError {
  return new HttpError(422, { errors: [{ title: 'Invalid value', source: { pointer: `/${param}` }, detail }] });
}

export const notFoundResponse = (): RestResponse => ({ status: 404, body: NOT_FOUND });

/** Blockscout's answer to a GET under /api/v2 that no route serves. */
export const unknownActionResponse = (): RestResponse => ({ status: 400, body: { message: 'Unknown API v2 action' } });
