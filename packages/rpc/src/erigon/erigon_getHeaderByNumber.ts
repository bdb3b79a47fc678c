import { defineRpcMethod } from '@ashlar/core';
import { toRpcBlock } from '../format/index.js';
import { otsNumber } from '../ots/otsParams.js';

/** Erigon's erigon_getHeaderByNumber (Otterscan reads headers with it): the block's header fields, null when unknown. */
export const erigon_getHeaderByNumber = defineRpcMethod({
  name: 'erigon_getHeaderByNumber',
  params: [otsNumber('blockNumber')],
  handler: async (ctx, [n]) => {
    const sb = await ctx.kernel.chain.getBlock(n);
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
