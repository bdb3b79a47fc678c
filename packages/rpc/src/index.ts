// @ashlar/rpc: JSON-RPC method plugins by namespace, their parameter parsers and result formatters.
import { definePlugin, type Plugin } from '@ashlar/core';
import { debugMethods, debugPlugin } from './debug/index.js';
import { devMethods, devPlugin } from './dev/index.js';
import { erigonMethods, erigonPlugin } from './erigon/index.js';
import { ethMethods, ethPlugin } from './eth/index.js';
import { evm_mine, evm_setAutomine } from './evm/mining.js';
import { type FiltersOptions, filtersPlugin } from './filters/index.js';
import { net_listening, net_peerCount, net_version } from './net/net.js';
import { otsMethods, otsPlugin } from './ots/index.js';
import { subscriptionsPlugin } from './subscriptions/index.js';
import { signMethods, signPlugin } from './sign/index.js';
import { testingMethods, testingPlugin } from './testing/index.js';
import { traceMethods, tracePlugin } from './trace/index.js';
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

export interface RpcPluginsOptions {
  /** Options of the polling filters (`timeoutMs`, default 5 minutes). */
  filters?: FiltersOptions;
}

/**
 * Every JSON-RPC plugin of this package that needs nothing outside it, in a working order.
 * `rpc:ots` is not among them: it needs core's index plugin, so mount it with that one
 * (`[indexPlugin(), ...rpcPlugins(), otsPlugin]`, as `createNode` does).
 */
export function rpcPlugins(options: RpcPluginsOptions = {}): Plugin<unknown>[] {
  return [
    ethPlugin,
    netPlugin,
    web3Plugin,
    evmMiningPlugin,
    subscriptionsPlugin,
    filtersPlugin(options.filters),
    devPlugin,
    signPlugin,
    debugPlugin,
    tracePlugin,
    erigonPlugin,
    testingPlugin,
  ] as Plugin<unknown>[];
}

export {
  ethPlugin,
  ethMethods,
  devPlugin,
  devMethods,
  signPlugin,
  signMethods,
  debugPlugin,
  debugMethods,
  tracePlugin,
  traceMethods,
  otsPlugin,
  otsMethods,
  erigonPlugin,
  erigonMethods,
  testingPlugin,
  testingMethods,
};
export {
  DEFAULT_FILTER_TIMEOUT_MS,
  type FilterKind,
  filterMethods,
  type FiltersOptions,
  FilterService,
  FiltersToken,
  filtersPlugin,
} from './filters/index.js';
export * from './subscriptions/index.js';
export * from './params/index.js';
export * from './format/index.js';
