import { defineRpcMethod } from '@ashlar/core';

/** eth/68, the wire protocol version geth reports. */
export const eth_protocolVersion = defineRpcMethod({ name: 'eth_protocolVersion', params: [], handler: () => '0x44' });
