import { defineRpcMethod } from '@ashlar/core';
import { string } from '../params/index.js';
import { FiltersToken } from './FilterService.js';

export const eth_getFilterChanges = defineRpcMethod({
  name: 'eth_getFilterChanges',
  params: [string('filterId')],
  handler: (ctx, [id]) => ctx.services.resolve(FiltersToken).changes(id, ctx.services.options.rpc.logsMaxResults),
});
