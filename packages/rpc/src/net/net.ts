import { defineRpcMethod } from '@ashlar/core';

/** Network id = chain id, as a decimal string (geth). */
export const net_version = defineRpcMethod({
  name: 'net_version',
  params: [],
  handler: (ctx) => ctx.services.options.chain.chainId.toString(10),
});

/** Spec §2.1: a JSON boolean. The node listens for RPC; it has no p2p. */
export const net_listening = defineRpcMethod({ name: 'net_listening', params: [], handler: () => true });

/** Spec §2.1: a JSON number. A dev chain has no peers. */
export const net_peerCount = defineRpcMethod({ name: 'net_peerCount', params: [], handler: () => 0 });
