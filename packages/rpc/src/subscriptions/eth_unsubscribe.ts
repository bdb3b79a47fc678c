import { AshlarError, defineRpcMethod, ErrorCodes } from '@ashlar/core';
import { string } from '../params/index.js';
import { notifyingConnection } from './Subscription.js';
import { SubscriptionsToken } from './SubscriptionService.js';

export const eth_unsubscribe = defineRpcMethod({
  name: 'eth_unsubscribe',
  params: [string('subscriptionId')],
  handler: (ctx, [id]) => {
    const connection = notifyingConnection(ctx);
    // Another connection's subscription is as unknown to this caller as a made-up id.
    if (!ctx.services.resolve(SubscriptionsToken).unsubscribe(connection, id)) {
      throw new AshlarError(ErrorCodes.SUBSCRIPTION_NOT_FOUND, 'subscription not found');
    }
    return true;
  },
});
