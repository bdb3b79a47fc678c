import { defineRpcMethod } from '@ashlar/core';
import { string } from '../params/index.js';
import { FiltersToken } from './FilterService.js';

/** True when the filter existed; an unknown id is `false`, not an error (geth). */
export const eth_uninstallFilter = defineRpcMethod({
  name: 'eth_uninstallFilter',
  params: [string('filterId')],
  handler: (ctx, [id]) => ctx.services.resolve(FiltersToken).uninstall(id),
});
