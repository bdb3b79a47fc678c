import { AshlarError, ErrorCodes } from '@ashlar/core';
import {
  type BlockTagParam,
  decodeAddress,
  decodeArrayOf,
  decodeBlockTag,
  decodeObject,
  decodeQuantityNumber,
  makeParser,
  optField,
} from '../params/index.js';
import type { ParityTrace } from './parityTrace.js';

/**
 * trace_filter's filter (OpenEthereum/Erigon): a block range, sender and recipient address sets,
 * and a page (`after` traces skipped, at most `count` given). `mode` is Erigon's and reth's:
 * `union` (their default: a trace matches when its sender is in `fromAddress` or its recipient
 * in `toAddress`) or `intersection` (both, an empty set matching any: OpenEthereum's rule).
 */
export interface TraceFilter {
  fromBlock?: BlockTagParam;
  toBlock?: BlockTagParam;
  fromAddress: Set<string>;
  toAddress: Set<string>;
  after: number;
  count?: number;
  mode: 'union' | 'intersection';
}

/** `after`/`count` are JSON numbers in OpenEthereum and Erigon (usize, uint64); hex quantities are taken too. */
function decodeCount(v: unknown): number {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid count ${v}`);
    return v;
  }
  return decodeQuantityNumber(v);
}

const addressSet = (v: unknown) =>
  new Set(decodeArrayOf(v, decodeAddress, '[]common.Address').map((a) => a.toString().toLowerCase()));

function decodeTraceFilter(v: unknown): TraceFilter {
  const o = decodeObject(v, 'TraceFilterRequest');
  const mode = optField(o, 'mode', (m) => m);
  if (mode !== undefined && mode !== 'union' && mode !== 'intersection')
    throw new AshlarError(
      ErrorCodes.INVALID_PARAMS,
      `invalid mode ${JSON.stringify(mode)}: use "union" or "intersection"`,
    );
  const count = optField(o, 'count', decodeCount);
  return {
    fromBlock: optField(o, 'fromBlock', decodeBlockTag),
    toBlock: optField(o, 'toBlock', decodeBlockTag),
    fromAddress: optField(o, 'fromAddress', addressSet) ?? new Set(),
    toAddress: optField(o, 'toAddress', addressSet) ?? new Set(),
    after: optField(o, 'after', decodeCount) ?? 0,
    ...(count !== undefined ? { count } : {}),
    mode: mode ?? 'union',
  };
}

export const traceFilterParam = (name: string) => makeParser(name, decodeTraceFilter);

/** A trace's sender and recipient as the filter sees them (a creation's recipient is the created contract). */
function endpoints(t: ParityTrace): { from: string; to: string } {
  const a = t.action as Record<string, string>;
  if (t.type === 'suicide') return { from: a.address, to: a.refundAddress };
  if (t.type === 'create') return { from: a.from, to: (t.result as { address?: string } | null)?.address ?? '' };
  return { from: a.from, to: a.to };
}

export function traceMatches(f: TraceFilter, t: ParityTrace): boolean {
  const { from, to } = endpoints(t);
  const fromOk = f.fromAddress.has(from);
  const toOk = f.toAddress.has(to);
  if (f.mode === 'intersection') return (f.fromAddress.size === 0 || fromOk) && (f.toAddress.size === 0 || toOk);
  if (f.fromAddress.size === 0 && f.toAddress.size === 0) return true;
  return fromOk || toOk;
}
