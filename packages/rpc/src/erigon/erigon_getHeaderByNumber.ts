import { defineRpcMethod } from '@ashlar/core';
import { toRpcBlock } from '../format/index.js';
import { erigonBlockNumber } from '../params/index.js';

/**
 * Erigon's erigon_getHeaderByNumber (Otterscan probes it with `"latest"` and reads headers by
 * number): the block's header fields, null when unknown. `pending` is the head, as for ots_.
 */
export const erigon_getHeaderByNumber = defineRpcMethod({
  name: 'erigon_getHeaderByNumber',
  params: [erigonBlockNumber('blockNumber')],
  handler: async (ctx, [n]) => {
    const sb = await ctx.services.chain.resolveBlock(n);
    if (!sb) return null;
    const {
      transactions: _t,
      uncles: _u,
      withdrawals: _w,
      size: _s,
      totalDifficulty: _d,
      ...header
    } = toRpcBlock(sb, false);
    return header;
  },
});
