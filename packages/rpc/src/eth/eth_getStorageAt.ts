import { defineRpcMethod, toData } from '@ashlar/core';
import { setLengthLeft } from '@ethereumjs/util';
import { address, blockTagOrHash, storageKey, withDefault, LATEST } from '../params/index.js';
import { readState, toBlockRef } from '../shared/state.js';
import { forwardStateBelowFork, withUpstreamAccount } from '../shared/forkHistory.js';

export const eth_getStorageAt = defineRpcMethod({
  name: 'eth_getStorageAt',
  params: [address('address'), storageKey('key'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: (ctx, [addr, key, block]) =>
    forwardStateBelowFork(ctx.services, block, 'eth_getStorageAt', [addr.toString(), toData(setLengthLeft(key, 32))]) ??
    withUpstreamAccount(ctx.services, addr, () =>
      readState(ctx.services, toBlockRef(block), async (sm) =>
        toData(setLengthLeft(await sm.getStorage(addr, setLengthLeft(key, 32)), 32)),
      ),
    ),
});
