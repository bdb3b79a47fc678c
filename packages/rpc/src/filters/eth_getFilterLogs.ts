import { defineRpcMethod } from '@ashlar/core';
import { eth_getLogs } from '../eth/eth_getLogs.js';
import { string } from '../params/index.js';
import { FiltersToken } from './FilterService.js';

/** Every stored log the filter's criteria match: eth_getLogs run again, with its range checks and limits. */
export const eth_getFilterLogs = defineRpcMethod({
  name: 'eth_getFilterLogs',
  params: [string('filterId')],
  handler: (ctx, [id]) => eth_getLogs.handler(ctx, [ctx.services.resolve(FiltersToken).logCriteria(id)]),
});
