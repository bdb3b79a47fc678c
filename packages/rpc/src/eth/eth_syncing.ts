import { defineRpcMethod } from '@ashlar/core';

/** A dev chain makes its own blocks: never syncing. */
export const eth_syncing = defineRpcMethod({ name: 'eth_syncing', params: [], handler: () => false });
