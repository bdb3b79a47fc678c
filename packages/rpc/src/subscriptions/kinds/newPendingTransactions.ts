import { decodeBoolean } from '../../params/index.js';
import type { SubscriptionKind } from './types.js';

/** `newPendingTransactions`: the hash of each transaction entering the pool, or the whole transaction when the parameter is `true` (geth's fullTx). */
export const newPendingTransactions: SubscriptionKind = {
  prepare(options) {
    const full = options === undefined || options === null ? false : decodeBoolean(options);
    return (notify) => ({
      pending: full ? (view) => notify(view.transaction()) : (view) => notify(view.hash),
    });
  },
};
