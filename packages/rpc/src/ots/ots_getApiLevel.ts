import { defineRpcMethod } from '@ashlar/core';

/** The Otterscan API level served: 8, what Otterscan's current release requires (Anvil reports the same). */
export const ots_getApiLevel = defineRpcMethod({
  name: 'ots_getApiLevel',
  params: [],
  handler: () => 8,
});
