import { AshlarError, ErrorCodes, defineRpcMethod } from '@ashlar/core';
import { traceBlock } from '../debug/replay.js';
import { toBlockRef } from '../shared/state.js';
import { executionTimeout, timeLimitMs } from '../shared/timeLimit.js';
import { ParityTracer } from './ParityTracer.js';
import type { ParityTrace } from './parityTrace.js';
import { positionIn } from './positions.js';
import { traceFilterParam, traceMatches } from './traceFilter.js';

/**
 * trace_filter (OpenEthereum/Erigon): the Parity traces of the blocks `fromBlock` (default 0) to
 * `toBlock` (default latest) whose sender/recipient match the address sets, in chain order, the
 * first `after` skipped and at most `count` given. Blocks without transactions are not replayed;
 * the range is capped like eth_getLogs' (`logsMaxBlockRange` blocks, `logsMaxResults` traces),
 * and the whole request runs under the node's call timeout.
 */
export const trace_filter = defineRpcMethod({
  name: 'trace_filter',
  params: [traceFilterParam('filter')],
  handler: async (ctx, [f]) => {
    const chain = ctx.services.chain;
    const from = f.fromBlock ? (await chain.requireBlock(toBlockRef(f.fromBlock))).number : 0n;
    const to = f.toBlock ? (await chain.requireBlock(toBlockRef(f.toBlock))).number : chain.head.number;
    if (from > to)
      throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid block range: fromBlock ${from} > toBlock ${to}`);
    const max = ctx.services.options.rpc.logsMaxBlockRange;
    if (to - from + 1n > BigInt(max))
      throw new AshlarError(
        ErrorCodes.LIMIT_EXCEEDED,
        `block range ${to - from + 1n} exceeds the limit of ${max} blocks`,
      );
    const out: ParityTrace[] = [];
    let skip = f.after;
    const wanted = f.count;
    const maxResults = ctx.services.options.rpc.logsMaxResults;
    // One time limit for the whole request (the node's call timeout), shared by its block replays.
    const limit = timeLimitMs(ctx.services);
    const deadline = limit > 0 ? performance.now() + limit : Number.POSITIVE_INFINITY;
    for (let n = from < 1n ? 1n : from; n <= to; n++) {
      if (wanted !== undefined && out.length >= wanted) break;
      const sb = await chain.getBlock(n);
      if (!sb || sb.block.transactions.length === 0) continue;
      const left = deadline - performance.now();
      if (left <= 0) throw executionTimeout();
      const pos = positionIn(sb);
      const traced = await traceBlock(
        ctx.services,
        sb,
        () => new ParityTracer({ trace: true, stateDiff: false }, pos),
        undefined,
        Number.isFinite(left) ? Math.max(1, Math.floor(left)) : undefined,
      );
      for (const t of traced.flatMap((x) => x.result.trace)) {
        if (!traceMatches(f, t)) continue;
        if (skip > 0) {
          skip--;
          continue;
        }
        if (wanted !== undefined && out.length >= wanted) break;
        if (out.length >= maxResults)
          throw new AshlarError(
            ErrorCodes.LIMIT_EXCEEDED,
            `query returned more than ${maxResults} traces; narrow the block range or the filter, or page with after/count`,
          );
        out.push(t);
      }
    }
    return out;
  },
});
