// @ashlar/explorer: the Blockscout-compatible REST API (/api/v2) of an Ashlar node, served from
// the node's own index: no database, no separate indexer.
export { explorerPlugin, explorerOf, ExplorerTokens, type ExplorerPluginOptions } from './plugin.js';
export { Explorer, type ExplorerOptions, type MinedTx, type PoolTx, type AnyTx } from './Explorer.js';
export { PAGE_SIZE } from './pagination/page.js';
export { SmartContracts, type SmartContractsOptions } from './verify/SmartContracts.js';
export type { SolcCompiler, SolcLoader } from './verify/solc.js';
export type { VerifiedContract } from './verify/types.js';
