import { AshlarError, defineRpcMethod, ErrorCodes, type ParamParser } from '@ashlar/core';
import { argumentError, DecodeError, string } from '../params/index.js';
import { SUBSCRIPTION_KINDS } from './kinds/index.js';
import { notifyingConnection } from './Subscription.js';
import { SubscriptionsToken } from './SubscriptionService.js';

/** The kind-specific second parameter, handed on raw: each kind decodes its own. */
const kindOptions: ParamParser<unknown> = { name: 'options', optional: true, parse: (v) => v };

export const eth_subscribe = defineRpcMethod({
  name: 'eth_subscribe',
  params: [string('subscriptionName'), kindOptions],
  handler: (ctx, [name, options]) => {
    const connection = notifyingConnection(ctx);
    const kind = SUBSCRIPTION_KINDS.get(name);
    if (kind === undefined) {
      throw new AshlarError(ErrorCodes.METHOD_NOT_FOUND, `no "${name}" subscription in eth namespace`);
    }
    let listen: ReturnType<typeof kind.prepare>;
    try {
      listen = kind.prepare(options);
    } catch (e) {
      if (e instanceof DecodeError) throw argumentError(1, 'options', e.describe());
      throw e;
    }
    return ctx.services.resolve(SubscriptionsToken).subscribe(connection, listen);
  },
});
