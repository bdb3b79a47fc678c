// @ashlar/hardhat: a Hardhat project's tests on an in-process Ashlar chain.
// `@ashlar/hardhat/hardhat3` is the Hardhat 3 plugin, `@ashlar/hardhat/hardhat2` the Hardhat 2
// extension; this entry holds what both use.
export { type AshlarHardhatOptions, toNodeOptions } from './options.js';
export { type AshlarChain, type Announce, startAshlar } from './startAshlar.js';
export { LazyAshlarProvider, type RequestArguments } from './lazyProvider.js';
