import { AshlarError, ErrorCodes, defineRpcMethod } from '@ashlar/core';
import { toRpcBlock } from '../format/index.js';
import { erigonBlockNumber } from '../params/index.js';
import { otsUint8 } from './otsParams.js';
import { receiptWithTimestamp, transactionAt } from './txWithReceipt.js';

/**
 * Erigon's ots_getBlockTransactions: page `pageNumber` of a block's transactions counted from
 * its end (page 0 holds the last `pageSize`, in block order), each `input` cut to its 4-byte
 * selector, with their receipts (`logs` and `logsBloom` null).
 */
export const ots_getBlockTransactions = defineRpcMethod({
  name: 'ots_getBlockTransactions',
  params: [erigonBlockNumber('blockNumber'), otsUint8('pageNumber'), otsUint8('pageSize')],
  handler: async (ctx, [n, page, size]) => {
    const sb = await ctx.services.chain.resolveBlock(n);
    if (!sb) {
      const what = n.kind === 'number' ? `#${n.number}` : n.tag;
      throw new AshlarError(ErrorCodes.BLOCK_NOT_FOUND, `block ${what} not found`);
    }
    const count = sb.block.transactions.length;
    const end = Math.max(0, count - page * size);
    const start = Math.max(0, end - size);
    const indices = Array.from({ length: end - start }, (_, i) => start + i);
    const { transactions: _all, ...block } = toRpcBlock(sb, false);
    const transactions = indices.map((i) => {
      const tx = transactionAt(sb, i);
      return { ...tx, input: tx.input.length > 10 ? tx.input.slice(0, 10) : tx.input };
    });
    const receipts = indices.map((i) => ({ ...receiptWithTimestamp(sb, i), logs: null, logsBloom: null }));
    return { fullblock: { ...block, transactions, transactionCount: count }, receipts };
  },
});
