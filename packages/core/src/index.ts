// @ashlar/core: the kernel and everything plugins and transports build on.
// First: hex built-ins before @noble/hashes evaluates (see util/hexBuiltins.ts).
import './util/hexBuiltins.js';
export { createKernel } from './kernel/createKernel.js';
export { Kernel } from './kernel/Kernel.js';
export { definePlugin, type Plugin, type PluginContext } from './kernel/definePlugin.js';
export type { KernelServices } from './kernel/services.js';
export type { KernelOptions } from './kernel/KernelOptions.js';
export type { ChainSettings } from './chain/ChainSettings.js';
export type { MinerSettings } from './miner/MinerSettings.js';
export {
  type KernelSettings,
  type ChainOptions,
  type MiningOptions,
  type RpcLimits,
  type ResolvedOptions,
  type Logger,
  type SendDefaults,
  SEND_DEFAULTS,
  HARDHAT_API_VERSION,
  defaultClientVersion,
  engineVersion,
  silentLogger,
  VERSION,
} from './kernel/options.js';
export { Tokens } from './kernel/tokens.js';
export type { ServiceFactory } from './kernel/ServiceProviders.js';
export type {
  BlockWrites,
  PluginKeyEncoding,
  PluginRange,
  PluginStore,
  PluginTableOptions,
  PluginValueEncoding,
  PluginWrite,
} from './kernel/PluginStore.js';
export { token, type Token, type DependencyContainer } from './di/container.js';
export { EventBus, type KernelEvents } from './events/EventBus.js';
export { type ChainLog, logsOf } from './events/chainLogs.js';
export { LogIndex, type LogCandidates, type LogIndexOptions, logIndexOf } from './logs/LogIndex.js';
export type { HexBlockLogs, HexLog } from './logs/hexBlockLogs.js';
export { RecentTxs, recentTxsOf } from './logs/RecentTxs.js';
export * from './errors/index.js';
export { defineRpcMethod } from './rpc/types.js';
export type {
  ParamParser,
  RpcContext,
  RpcMethodDefinition,
  RpcEngine,
  EngineCloseHook,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccess,
  JsonRpcFailure,
} from './rpc/types.js';
export { MethodRegistry } from './rpc/MethodRegistry.js';
export { RouteRegistry, type RestRequest, type RestResponse, type RouteHandler } from './routes/RouteRegistry.js';
export { injectRoute, type InjectedResponse } from './routes/inject.js';
export { injectMethod, methodCaller, type InjectedRpcResponse, type MethodCaller } from './rpc/injectMethod.js';
export type {
  BlockParam,
  Hex,
  MethodSpec,
  ParamsOf,
  ResultOf,
  RpcBlock,
  RpcLog,
  RpcLogFilter,
  RpcMethods,
  RpcReceipt,
  RpcTransaction,
  RpcTransactionRequest,
} from './rpc/methodMap.js';
export type { StoragePort } from './storage/StoragePort.js';
export { SUBLEVELS } from './storage/keys.js';
export type { LogContext } from './storage/ChainStore.js';
export { memoryStorage } from './storage/memoryStorage.js';
export { ChainService, type BlockRef, type BlockTag, type VirtualBlocks } from './chain/ChainService.js';
export type { StoredBlock, StoredReceipt, RawLog, TxLocation } from './chain/types.js';
export { deriveAccounts, DEFAULT_MNEMONIC, type DevAccount } from './chain/accounts.js';
export { DEFAULT_HARDFORK, SUPPORTED_HARDFORKS } from './chain/chainCommon.js';
export { cryptoImpl, publicKeyOf, signHash } from './chain/nativeCrypto.js';
export { kzgLoaded } from './chain/kzg.js';
export { type CryptoSelection, loadWasmKeccak256, selectCrypto } from './chain/cryptoBackends.js';
export { MempoolService } from './mempool/MempoolService.js';
export { TxService, type SubmitResult } from './mempool/TxService.js';
export { fastTxFromRaw } from './mempool/fastTxFromRaw.js';
export { unpaddedBytes } from './storage/unpaddedBytes.js';
export type { PendingTx } from './mempool/types.js';
export { MinerService } from './miner/MinerService.js';
export { effectiveGasPrice } from './miner/assembleBlock.js';
export {
  type GethGenesisJson,
  type GethGenesisAccount,
  type GethNumber,
  createGethCommon,
  gethChainId,
} from './chain/gethGenesis.js';
export {
  importBlocks,
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
} from './import/importBlocks.js';
export { exportBlocks } from './import/exportBlocks.js';
export { splitRlpItems } from './import/rlpBlocks.js';
export { Executor, type ExecTarget, buildUnsignedTx } from './exec/Executor.js';
export { scratchVm } from './exec/scratchVm.js';
export { ExecutionDeadline } from './exec/ExecutionDeadline.js';
export type { CallRequest, AccountOverride, StateOverrides } from './exec/types.js';
export { applyStateOverrides } from './exec/applyStateOverrides.js';
export { accessListField, authorizationListField } from './exec/txFields.js';
export { decodeRevertReason, revertMessage, PANIC_REASONS } from './exec/decodeRevert.js';
export { failedTxError, hardhatRevertText } from './exec/failedTxError.js';
export { type AbiResolver, type KnownContract, KnownContracts, KnownContractsToken } from './exec/KnownContracts.js';
export { type NamedCustomError, nameCustomError } from './exec/customErrorText.js';
export { revertPcsOfTx } from './exec/revertPcsOfTx.js';
export { allowContractSender } from './exec/contractSender.js';
export { toQuantity, toData, fromData } from './util/hex.js';
export {
  type AccountState,
  type StateAt,
  balanceAt,
  codeAt,
  nonceAt,
  readAccount,
  readStateAt,
  storageAt,
} from './state/reads.js';
export { createProvider, type Eip1193Provider, type ProviderEvents } from './provider/createProvider.js';
export * from './dev/index.js';
export { IndexService, type IndexOptions } from './index/IndexService.js';
export { IndexTokens, installIndex, indexOf } from './index/installIndex.js';
export { INDEX_PLUGIN, indexPlugin } from './index/indexPlugin.js';
export { INDEX_TABLES, type IndexTable, type IndexStore, type Entry as IndexEntry } from './index/IndexStore.js';
export {
  IndexQueries,
  type TxPosition,
  type TransferPosition,
  type TxSource,
  type TransferSource,
  type Role,
  type InternalPosition,
  type InternalSource,
} from './index/IndexQueries.js';
export * from './index/records.js';
export { decodeTransfers, TOPICS as TOKEN_TOPICS, type DecodedTransfer } from './index/tokenEvents.js';
export { decodeTextReturn } from './index/tokenMetadata.js';
export { blockReward } from './index/blockRows.js';
export { dayOf } from './index/indexKeys.js';
export type { Progress } from './index/progress.js';
export { CallFrameTracer } from './trace/CallFrameTracer.js';
export {
  ETHEREUMJS_VERSION,
  EngineInternalsError,
  checkEngineInternals,
  paramsTable,
  precompileTable,
} from './evm/internals.js';
export {
  type CallFrame,
  type CallType,
  type FrameLog,
  type FlatFrame,
  flattenFrames,
  hasErrorInInternalFrames,
  gethError,
  parityError,
} from './trace/callFrames.js';
export { blockCallFrames, replayFrames } from './trace/replayFrames.js';
export { applyBlockSystemCalls } from './trace/systemCalls.js';
export { CONSOLE_ADDRESS, decodeConsoleCall, formatConsoleArgs } from './console/decodeConsole.js';
export type { ConsoleEvent, ConsoleLine } from './console/ConsoleCapture.js';
// Forking (docs/forking.md): options, the fork a chain holds, and the upstream side (fork/upstream).
export { type ForkOptions, type ResolvedForkOptions, resolveForkOptions } from './fork/forkOptions.js';
export type { ForkContext } from './fork/openFork.js';
export type { ForkHistory, RpcBlock as UpstreamRpcBlock } from './fork/ForkHistory.js';
