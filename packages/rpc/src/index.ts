// @ashlar/rpc: JSON-RPC method plugins by namespace, their parameter parsers and result formatters.
import { definePlugin, type Plugin } from '@ashlar/core';
import { ethMethods, ethPlugin } from './eth/index.js';
import { evm_mine, evm_setAutomine } from './evm/mining.js';
import { net_listening, net_peerCount, net_version } from './net/net.js';
import { web3_clientVersion, web3_sha3 } from './web3/web3.js';

export const netPlugin = definePlugin({
  name: 'rpc:net',
  register: (ctx) => ctx.addMethods(net_version, net_listening, net_peerCount),
});

export const web3Plugin = definePlugin({
  name: 'rpc:web3',
  register: (ctx) => ctx.addMethods(web3_clientVersion, web3_sha3),
});

/** Mining control that clients and test suites use to switch modes (the rest of the dev namespace is a separate plugin). */
export const evmMiningPlugin = definePlugin({
  name: 'rpc:evm-mining',
  register: (ctx) => ctx.addMethods(evm_mine, evm_setAutomine),
});

/** Every JSON-RPC plugin of this package, in a working order. */
export function rpcPlugins(): Plugin<unknown>[] {
  return [ethPlugin, netPlugin, web3Plugin, evmMiningPlugin] as Plugin<unknown>[];
}

export { ethPlugin, ethMethods };
export * from './params/index.js';
export * from './format/index.js';
