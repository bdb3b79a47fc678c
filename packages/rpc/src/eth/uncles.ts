import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { toRpcBlock } from '../format/index.js';
import { blockTag, hash, quantityNumber } from '../params/index.js';
import { findBlock } from '../shared/blocks.js';

// Uncle methods, answered from the block's ommer headers (none on a dev chain; imported chains may have them).

export const eth_getUncleCountByBlockHash = defineRpcMethod({
  name: 'eth_getUncleCountByBlockHash',
  params: [hash('blockHash')],
  handler: async (ctx, [h]) => {
    const sb = await ctx.services.chain.getBlockByHash(h);
    return sb ? toQuantity(sb.block.uncleHeaders.length) : null;
  },
});

export const eth_getUncleCountByBlockNumber = defineRpcMethod({
  name: 'eth_getUncleCountByBlockNumber',
  params: [blockTag('block')],
  handler: async (ctx, [b]) => {
    const sb = await findBlock(ctx.services, b);
    return sb ? toQuantity(sb.block.uncleHeaders.length) : null;
  },
});

function uncleObject(header: import('@ethereumjs/block').BlockHeader) {
  // An uncle is returned as a block without transactions (geth): header fields, empty lists.
  const fake = {
    block: { header, transactions: [], uncleHeaders: [], withdrawals: undefined, serialize: () => header.serialize() },
    number: header.number,
    hash: header.hash(),
    senders: [],
    receipts: [],
    totalDifficulty: header.difficulty,
    size: header.serialize().length,
  };
  return toRpcBlock(fake as unknown as Parameters<typeof toRpcBlock>[0], false, { totalDifficulty: false });
}

export const eth_getUncleByBlockHashAndIndex = defineRpcMethod({
  name: 'eth_getUncleByBlockHashAndIndex',
  params: [hash('blockHash'), quantityNumber('index')],
  handler: async (ctx, [h, i]) => {
    const sb = await ctx.services.chain.getBlockByHash(h);
    const u = sb?.block.uncleHeaders[i];
    return u ? uncleObject(u) : null;
  },
});

export const eth_getUncleByBlockNumberAndIndex = defineRpcMethod({
  name: 'eth_getUncleByBlockNumberAndIndex',
  params: [blockTag('block'), quantityNumber('index')],
  handler: async (ctx, [b, i]) => {
    const sb = await findBlock(ctx.services, b);
    const u = sb?.block.uncleHeaders[i];
    return u ? uncleObject(u) : null;
  },
});
