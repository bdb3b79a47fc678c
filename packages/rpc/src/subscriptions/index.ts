import { definePlugin } from '@ashlar/core';
import { ChainFeed } from './ChainFeed.js';
import { eth_subscribe } from './eth_subscribe.js';
import { eth_unsubscribe } from './eth_unsubscribe.js';
import { SubscriptionService, SubscriptionsToken } from './SubscriptionService.js';

/**
 * `eth_subscribe` / `eth_unsubscribe` over any transport whose connection can send
 * (the WebSocket transport, the in-process EIP-1193 provider). Subscriptions end with their
 * connection, or all at once when the kernel closes.
 */
export const subscriptionsPlugin = definePlugin({
  name: 'rpc:subscriptions',
  register(ctx) {
    const feed = new ChainFeed(ctx.events, (e) =>
      ctx.logger.error(`subscription delivery failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
    );
    const service = new SubscriptionService(feed);
    ctx.provide(SubscriptionsToken, () => service);
    ctx.addMethods(eth_subscribe, eth_unsubscribe);
  },
  // This kernel's service (the plugin object is shared by every kernel that mounts it).
  close: (ctx) => ctx.resolve(SubscriptionsToken).close(),
});

export { BlockView, type RpcHeader, type ViewLog } from './BlockView.js';
export { ChainFeed, type FeedListener } from './ChainFeed.js';
export { newSubscriptionId } from './ids.js';
export { type LiveLogFilter, liveLogFilter, matchingLogs } from './liveLogFilter.js';
export { MAX_TX_HASHES, SUBSCRIPTION_KINDS, type SubscriptionKind } from './kinds/index.js';
export { PendingView } from './PendingView.js';
export type { NotifyingConnection, SubscriptionNotification } from './Subscription.js';
export { SubscriptionService, SubscriptionsToken } from './SubscriptionService.js';
export { eth_subscribe, eth_unsubscribe };
