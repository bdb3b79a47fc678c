import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { address, blockTagOrHash, withDefault, LATEST } from '../params/index.js';
import { readState, toBlockRef } from '../shared/state.js';
import { forwardStateBelowFork, withUpstreamAccount } from '../shared/forkHistory.js';

export const eth_getBalance = defineRpcMethod({
  name: 'eth_getBalance',
  params: [address('address'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: (ctx, [addr, block]) =>
    forwardStateBelowFork(ctx.services, block, 'eth_getBalance', [addr.toString()]) ??
    withUpstreamAccount(ctx.services, addr, () =>
      readState(ctx.services, toBlockRef(block), async (sm) => toQuantity((await sm.getAccount(addr))?.balance ?? 0n)),
    ),
});
