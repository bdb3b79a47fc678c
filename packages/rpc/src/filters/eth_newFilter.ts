import { defineRpcMethod } from '@ashlar/core';
import { logFilter } from '../params/index.js';
import { FiltersToken } from './FilterService.js';

export const eth_newFilter = defineRpcMethod({
  name: 'eth_newFilter',
  params: [logFilter('filter')],
  handler: (ctx, [filter]) => ctx.services.resolve(FiltersToken).installLogs(filter),
});
