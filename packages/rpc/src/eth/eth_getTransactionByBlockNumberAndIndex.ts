import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { toRpcTransaction } from '../format/index.js';
import { blockTag, quantityNumber } from '../params/index.js';
import { findBlock, isPending, pendingBlock } from '../shared/blocks.js';
import { minedTransaction } from '../shared/transactions.js';
import { forwardToUpstream } from '../shared/forkHistory.js';

export const eth_getTransactionByBlockNumberAndIndex = defineRpcMethod({
  name: 'eth_getTransactionByBlockNumberAndIndex',
  params: [blockTag('block'), quantityNumber('index')],
  handler: async (ctx, [block, index]) => {
    if (isPending(block)) {
      const p = pendingBlock(ctx.services);
      const tx = p.block.transactions[index];
      return tx ? toRpcTransaction(tx, p.senders[index]) : null;
    }
    const upstream = forwardToUpstream(
      ctx.services,
      block,
      'eth_getTransactionByBlockNumberAndIndex',
      [toQuantity(index)],
      0,
    );
    if (upstream) return upstream;
    const sb = await findBlock(ctx.services, block);
    return sb ? minedTransaction(sb, index) : null;
  },
});
