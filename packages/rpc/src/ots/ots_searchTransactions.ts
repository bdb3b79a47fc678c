import { defineRpcMethod } from '@ashlar/core';
import { address } from '../params/index.js';
import { historyAfter, historyBefore, txsWithReceipts } from './addressHistory.js';
import { otsUint16, otsUint64 } from './otsParams.js';
import { requireIndex } from './requireIndex.js';

/**
 * The transactions that reached an address (sent, received, or any call frame from or to it, as
 * Erigon's call-trace index) in blocks before `blockNumber` (0: from the
 * head), newest first, from the explorer index. `firstPage` when searching from the head,
 * `lastPage` when nothing older remains.
 */
export const ots_searchTransactionsBefore = defineRpcMethod({
  name: 'ots_searchTransactionsBefore',
  params: [address('address'), otsUint64('blockNumber'), otsUint16('pageSize')],
  handler: async (ctx, [a, n, size]) => {
    const q = requireIndex(ctx.services, 'ots_searchTransactionsBefore').queries;
    const { items, more } = await historyBefore(q, a, n === 0n ? undefined : n, size);
    return { ...(await txsWithReceipts(ctx.services, items)), firstPage: n === 0n, lastPage: !more };
  },
});

/**
 * The same after `blockNumber` (0: from the genesis), still newest first. `lastPage` when
 * searching from the genesis, `firstPage` when nothing newer remains.
 */
export const ots_searchTransactionsAfter = defineRpcMethod({
  name: 'ots_searchTransactionsAfter',
  params: [address('address'), otsUint64('blockNumber'), otsUint16('pageSize')],
  handler: async (ctx, [a, n, size]) => {
    const q = requireIndex(ctx.services, 'ots_searchTransactionsAfter').queries;
    // From the genesis means including it: its allocation has no transactions anyway.
    const { items, more } = await historyAfter(q, a, n === 0n ? -1n : n, size);
    return { ...(await txsWithReceipts(ctx.services, items)), firstPage: !more, lastPage: n === 0n };
  },
});
