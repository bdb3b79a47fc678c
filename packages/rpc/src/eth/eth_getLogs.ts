import { AshlarError, ErrorCodes, defineRpcMethod } from '@ashlar/core';
import { logFilter } from '../params/index.js';
import { logsAcrossFork, upstreamLogsByHash } from '../shared/forkHistory.js';
import { queryLogs } from '../shared/logs.js';

export const eth_getLogs = defineRpcMethod({
  name: 'eth_getLogs',
  params: [logFilter('filter')],
  handler: async (ctx, [filter]) => {
    const { services } = ctx;
    const chain = services.chain;
    const limits = services.options.rpc;
    if (filter.blockHash) {
      const sb = await chain.getBlockByHash(filter.blockHash);
      const upstream = await upstreamLogsByHash(services, sb, filter, filter.blockHash);
      if (upstream) return upstream;
      if (!sb) throw new AshlarError(ErrorCodes.INVALID_PARAMS, 'unknown block');
      return queryLogs(services, filter, sb.number, sb.number, limits.logsMaxResults);
    }
    const head = chain.head.number;
    const resolve = (p: typeof filter.fromBlock): bigint => {
      if (!p) return head;
      if (p.kind === 'number') return p.number;
      return p.tag === 'pending' ? head : chain.tagNumber(p.tag);
    };
    const from = resolve(filter.fromBlock);
    const to = resolve(filter.toBlock);
    if (from > head || to > head) {
      throw new AshlarError(ErrorCodes.INVALID_PARAMS, `block range extends beyond current head block (head ${head})`);
    }
    if (from > to)
      throw new AshlarError(
        ErrorCodes.INVALID_PARAMS,
        `invalid block range params: fromBlock ${from} is after toBlock ${to}`,
      );
    if (to - from + 1n > BigInt(limits.logsMaxBlockRange)) {
      throw new AshlarError(
        ErrorCodes.LIMIT_EXCEEDED,
        `query exceeds max block range ${limits.logsMaxBlockRange}: asked for ${to - from + 1n} blocks (${from}..${to})`,
      );
    }
    return logsAcrossFork(services, filter, from, to, limits.logsMaxResults, (f, t, max) =>
      queryLogs(services, filter, f, t, max),
    );
  },
});
