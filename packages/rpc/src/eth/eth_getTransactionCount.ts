import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { address, blockTagOrHash, withDefault, LATEST } from '../params/index.js';
import { readState, toBlockRef } from '../shared/state.js';
import { forwardStateBelowFork, withUpstreamAccount } from '../shared/forkHistory.js';

export const eth_getTransactionCount = defineRpcMethod({
  name: 'eth_getTransactionCount',
  params: [address('address'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: (ctx, [addr, block]) =>
    forwardStateBelowFork(ctx.services, block, 'eth_getTransactionCount', [addr.toString()]) ??
    withUpstreamAccount(ctx.services, addr, () =>
      readState(ctx.services, toBlockRef(block), async (sm) => {
        const nonce = (await sm.getAccount(addr))?.nonce ?? 0n;
        // `pending` counts the sender's transactions waiting in the pool.
        if (block.kind === 'tag' && block.tag === 'pending')
          return toQuantity(ctx.services.mempool.pendingNonce(addr, nonce));
        return toQuantity(nonce);
      }),
    ),
});
