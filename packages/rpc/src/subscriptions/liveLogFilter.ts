import { invalidParams } from '@ashlar/core';
import { equalsBytes } from '@ethereumjs/util';
import type { RpcLog } from '../format/index.js';
import type { BlockTagParam, LogFilter } from '../params/index.js';
import { logMatches } from '../shared/logs.js';
import type { BlockView } from './BlockView.js';

/** A log filter applied to blocks as they arrive (log subscriptions and eth_newFilter). */
export interface LiveLogFilter {
  filter: LogFilter;
  /** Numeric bounds only: tags other than `pending` mean "no bound" for blocks yet to come. */
  from?: bigint;
  to?: bigint;
}

const bound = (p: BlockTagParam | undefined): bigint | undefined => (p?.kind === 'number' ? p.number : undefined);

/**
 * Checks a filter for live use the way geth's event system does: pending logs no longer
 * exist, and a range must not end before it starts (or start at `latest` and end at a number).
 */
export function liveLogFilter(filter: LogFilter): LiveLogFilter {
  const { fromBlock, toBlock } = filter;
  if (
    (fromBlock?.kind === 'tag' && fromBlock.tag === 'pending') ||
    (toBlock?.kind === 'tag' && toBlock.tag === 'pending')
  )
    throw invalidParams('pending logs are not supported');
  const from = bound(fromBlock);
  const to = bound(toBlock);
  if ((from !== undefined && to !== undefined && from > to) || (fromBlock?.kind === 'tag' && to !== undefined))
    throw invalidParams('invalid from and to block combination');
  const out: LiveLogFilter = { filter };
  if (from !== undefined) out.from = from;
  if (to !== undefined) out.to = to;
  return out;
}

/** Can any log of this block match? (block number within the bounds, block hash if one is named). */
export function blockInRange(view: BlockView, f: LiveLogFilter): boolean {
  const n = view.number;
  if (f.from !== undefined && n < f.from) return false;
  if (f.to !== undefined && n > f.to) return false;
  return f.filter.blockHash === undefined || equalsBytes(f.filter.blockHash, view.block.hash);
}

/** The wire form of each log of `view` that matches, in block order. */
export function matchingLogs(view: BlockView, f: LiveLogFilter): RpcLog[] {
  if (!blockInRange(view, f)) return [];
  const out: RpcLog[] = [];
  for (const l of view.logs()) if (logMatches(l.raw, f.filter)) out.push(l.rpc);
  return out;
}
