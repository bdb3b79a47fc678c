export {
  type PendingBlockInput,
  type RpcBlockOptions,
  toRpcBlock,
  toRpcPendingBlock,
} from './block.js';
export {
  type BlockHexContext,
  blockHexContext,
  formatLog,
  type LogPosition,
  toRpcBlockLogs,
  toRpcLog,
} from './log.js';
export { toRpcReceipt, toRpcReceipts } from './receipt.js';
export {
  formatTransaction,
  type HexTxBlockLocation,
  type TxBlockLocation,
  toRpcTransaction,
} from './transaction.js';
export type {
  Hex,
  RpcAccessListEntry,
  RpcAuthorization,
  RpcBlock,
  RpcLog,
  RpcReceipt,
  RpcTransaction,
  RpcWithdrawal,
} from './types.js';
