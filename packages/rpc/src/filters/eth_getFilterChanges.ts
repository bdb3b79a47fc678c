import { defineRpcMethod } from '@ashlar/core';
import { string } from '../params/index.js';
import { FiltersToken } from './FilterService.js';

export const eth_getFilterChanges = defineRpcMethod({
  name: 'eth_getFilterChanges',
  params: [string('filterId')],
  handler: (ctx, [id]) => ctx.kernel.resolve(FiltersToken).changes(id, ctx.kernel.options.rpc.logsMaxResults),
});
