import type { SubscriptionKind } from './types.js';

/**
 * `syncing`: geth notifies only when a sync starts or ends. A dev chain makes its own blocks
 * and never syncs, so the subscription is valid and stays silent, exactly as geth's would on a
 * node that is in sync.
 */
export const syncing: SubscriptionKind = {
  prepare: () => () => ({}),
};
