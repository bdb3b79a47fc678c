import { defineRpcMethod } from '@ashlar/core';
import { LATEST, address, erigonBlockOrHash, withDefault } from '../params/index.js';
import { readState, toBlockRef } from '../shared/state.js';

/** Whether an address holds code at a block. */
export const ots_hasCode = defineRpcMethod({
  name: 'ots_hasCode',
  params: [address('address'), withDefault(erigonBlockOrHash('block'), LATEST)],
  handler: (ctx, [a, block]) =>
    readState(ctx.services, toBlockRef(block), async (sm) => (await sm.getCode(a)).length > 0),
});
