import { defineRpcMethod } from '@ashlar/core';
import { FiltersToken } from './FilterService.js';

export const eth_newBlockFilter = defineRpcMethod({
  name: 'eth_newBlockFilter',
  params: [],
  handler: (ctx) => ctx.services.resolve(FiltersToken).installBlocks(),
});
