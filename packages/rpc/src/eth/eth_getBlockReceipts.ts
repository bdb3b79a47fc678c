import { defineRpcMethod } from '@ashlar/core';
import { toRpcReceipts } from '../format/index.js';
import { blockTagOrHash } from '../params/index.js';
import { findBlock, isPending } from '../shared/blocks.js';
import { forwardByBlockHash, forwardToUpstream } from '../shared/forkHistory.js';

export const eth_getBlockReceipts = defineRpcMethod({
  name: 'eth_getBlockReceipts',
  params: [blockTagOrHash('block')],
  handler: async (ctx, [block]) => {
    if (isPending(block)) return null;
    const upstream = forwardToUpstream(ctx.services, block, 'eth_getBlockReceipts', [], 0);
    if (upstream) return upstream;
    const sb = await findBlock(ctx.services, block);
    if (block.kind === 'hash') {
      const byHash = forwardByBlockHash(ctx.services, sb, block.hash, 'eth_getBlockReceipts', []);
      if (byHash) return byHash;
    }
    return sb ? toRpcReceipts(sb) : null;
  },
});
