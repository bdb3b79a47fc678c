import { defineRpcMethod, toData } from '@ashlar/core';
import { address, blockTagOrHash, withDefault, LATEST } from '../params/index.js';
import { readState, toBlockRef } from '../shared/state.js';

export const eth_getCode = defineRpcMethod({
  name: 'eth_getCode',
  params: [address('address'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: (ctx, [addr, block]) =>
    readState(ctx.services, toBlockRef(block), async (sm) => toData(await sm.getCode(addr))),
});
