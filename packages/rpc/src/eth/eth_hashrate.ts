import { defineRpcMethod } from '@ashlar/core';

/** No proof of work: 0. */
export const eth_hashrate = defineRpcMethod({ name: 'eth_hashrate', params: [], handler: () => '0x0' });
