import { defineRpcMethod, toData } from '@ashlar/core';
import { address, blockTagOrHash, withDefault, LATEST } from '../params/index.js';
import { readState, toBlockRef } from '../shared/state.js';
import { forwardStateBelowFork, withUpstreamAccount } from '../shared/forkHistory.js';

export const eth_getCode = defineRpcMethod({
  name: 'eth_getCode',
  params: [address('address'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: (ctx, [addr, block]) =>
    forwardStateBelowFork(ctx.services, block, 'eth_getCode', [addr.toString()]) ??
    withUpstreamAccount(ctx.services, addr, () =>
      readState(ctx.services, toBlockRef(block), async (sm) => toData(await sm.getCode(addr))),
    ),
});
