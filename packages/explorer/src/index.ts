// @ashlar/explorer: the Blockscout-compatible REST API (/api/v2) of an Ashlar node, served from
// the node's own index: no database, no separate indexer.
export { explorerPlugin, explorerOf, ExplorerTokens, type ExplorerPluginOptions } from './plugin.js';
export { Explorer, type ExplorerOptions, type MinedTx, type PoolTx, type AnyTx } from './Explorer.js';
// The route kit for plugin authors: the explorer's own pagination, cursors, parameter parsers,
// HTTP errors and router, so a custom /api/v2 route answers in Blockscout's shapes (docs/plugins.md).
export { PAGE_SIZE, pageOf, type Page, type PageParams } from './pagination/page.js';
export {
  addressCursor,
  bigIntCursor,
  blockNumberCursor,
  indexCursor,
  integerStringCursor,
  present as cursorParam,
  transferCursor,
  txCursor,
} from './pagination/cursors.js';
export { HttpError, invalidParam, notFound } from './http/errors.js';
export {
  type BlockId,
  parseAddress,
  parseBlockId,
  parseEnum,
  parseEnumList,
  parseHash,
  parseIntegerString,
  parseSmallUint,
  parseUint,
} from './http/params.js';
export { ExplorerRouter, type ExplorerHandler, PREFIX as EXPLORER_PREFIX } from './http/router.js';
export { SmartContracts, type SmartContractsOptions } from './verify/SmartContracts.js';
export type { SolcCompiler, SolcLoader } from './verify/solc.js';
export type { VerifiedContract } from './verify/types.js';
// Call decoding with a verified contract's ABI (the CLI's --print-traces names functions with it).
export { decodeInput, decodeError, type DecodedCall, type DecodedParameter } from './verify/abi.js';
