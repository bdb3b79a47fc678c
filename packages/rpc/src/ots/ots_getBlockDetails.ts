import { defineRpcMethod } from '@ashlar/core';
import { erigonBlockNumber, hash } from '../params/index.js';
import { blockDetails } from './blockDetails.js';

/** A block's header fields, transaction count, issuance and fees (null for an unknown block). */
export const ots_getBlockDetails = defineRpcMethod({
  name: 'ots_getBlockDetails',
  params: [erigonBlockNumber('blockNumber')],
  handler: async (ctx, [n]) => {
    const sb = await ctx.services.chain.resolveBlock(n);
    return sb ? blockDetails(ctx.services, sb) : null;
  },
});

export const ots_getBlockDetailsByHash = defineRpcMethod({
  name: 'ots_getBlockDetailsByHash',
  params: [hash('blockHash')],
  handler: async (ctx, [h]) => {
    const sb = await ctx.services.chain.getBlockByHash(h);
    return sb ? blockDetails(ctx.services, sb) : null;
  },
});
