import type { TransferPosition, TxPosition } from '@ashlar/core';
import { invalidParam } from '../http/errors.js';
import { parseAddress, parseIntegerString, parseSmallUint, parseUint } from '../http/params.js';

/**
 * Page cursors from query parameters (what a previous `next_page_params` held). A cursor key
 * that is present must be well formed (422 naming it); a cursor is used only when complete.
 */
const present = (q: URLSearchParams, k: string): string | undefined => {
  const v = q.get(k);
  return v === null || v === '' || v === 'null' ? undefined : v;
};

function requireBoth(q: URLSearchParams, a: string, b: string): boolean {
  const hasA = present(q, a) !== undefined;
  const hasB = present(q, b) !== undefined;
  if (hasA !== hasB)
    throw invalidParam(hasA ? b : a, `Missing ${hasA ? b : a}: it pages together with ${hasA ? a : b}`);
  return hasA;
}

export function blockNumberCursor(q: URLSearchParams): bigint | undefined {
  const v = present(q, 'block_number');
  return v === undefined ? undefined : parseUint(v, 'block_number');
}

/** `block_number` + `index` of the last transaction shown. */
export function txCursor(q: URLSearchParams): TxPosition | undefined {
  if (!requireBoth(q, 'block_number', 'index')) return undefined;
  return {
    block: parseUint(present(q, 'block_number'), 'block_number'),
    index: parseSmallUint(present(q, 'index'), 'index'),
  };
}

/** `index` alone (a list inside one block or transaction). */
export function indexCursor(q: URLSearchParams, name = 'index'): number | undefined {
  const v = present(q, name);
  return v === undefined ? undefined : parseSmallUint(v, name);
}

/** `block_number` + `index` (log index) [+ `index_in_batch` inside an ERC-1155 batch]. */
export function transferCursor(q: URLSearchParams): TransferPosition | undefined {
  if (!requireBoth(q, 'block_number', 'index')) return undefined;
  const sub = present(q, 'index_in_batch');
  return {
    block: parseUint(present(q, 'block_number'), 'block_number'),
    logIndex: parseSmallUint(present(q, 'index'), 'index'),
    // Without a batch position the cursor is the whole log: continue below its first item.
    sub: sub === undefined ? 0 : parseSmallUint(sub, 'index_in_batch', 0xffff),
  };
}

export function bigIntCursor(q: URLSearchParams, name: string): bigint | undefined {
  const v = present(q, name);
  return v === undefined ? undefined : parseUint(v, name);
}

export function integerStringCursor(q: URLSearchParams, name: string): bigint | undefined {
  const v = present(q, name);
  return v === undefined ? undefined : parseIntegerString(v, name);
}

export function addressCursor(q: URLSearchParams, name: string): Uint8Array | undefined {
  const v = present(q, name);
  return v === undefined ? undefined : parseAddress(v, name);
}

export { present };
