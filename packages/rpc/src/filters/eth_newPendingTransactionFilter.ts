import { defineRpcMethod } from '@ashlar/core';
import { boolean, withDefault } from '../params/index.js';
import { FiltersToken } from './FilterService.js';

/** geth 1.13+: an optional `fullTx` flag makes the changes whole transactions instead of hashes. */
export const eth_newPendingTransactionFilter = defineRpcMethod({
  name: 'eth_newPendingTransactionFilter',
  params: [withDefault(boolean('fullTx'), false)],
  handler: (ctx, [full]) => ctx.services.resolve(FiltersToken).installPending(full),
});
