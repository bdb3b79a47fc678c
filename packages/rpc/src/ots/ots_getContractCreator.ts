import { defineRpcMethod, toData } from '@ashlar/core';
import { address } from '../params/index.js';
import { requireIndex } from './requireIndex.js';

/**
 * The transaction that created a contract and its creator, from the explorer index; null for an
 * account that is no contract or a contract of the genesis allocation.
 */
export const ots_getContractCreator = defineRpcMethod({
  name: 'ots_getContractCreator',
  params: [address('address')],
  handler: async (ctx, [a]) => {
    const q = requireIndex(ctx.services, 'ots_getContractCreator').queries;
    const c = await q.contract(a.bytes);
    if (!c || c.txIndex === null || !c.creator) return null;
    const sb = await ctx.services.chain.getBlock(c.block);
    const tx = sb?.block.transactions[c.txIndex];
    if (!tx) return null;
    return { hash: toData(tx.hash()), creator: toData(c.creator) };
  },
});
