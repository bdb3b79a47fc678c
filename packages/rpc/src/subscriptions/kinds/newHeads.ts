import type { SubscriptionKind } from './types.js';

/**
 * `newHeads`: the header of every new block. The parameter is ignored, since old geth
 * documentation showed `["newHeads", {}]` and clients still send it.
 */
export const newHeads: SubscriptionKind = {
  prepare: () => (notify) => ({ block: (view) => notify(view.header()) }),
};
