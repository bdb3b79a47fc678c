// Wire types of the JSON-RPC methods tests call most, by name: what injectMethod and
// methodCaller check a call against. Plugins add their own methods by declaration merging:
//
//   declare module '@ashlar/core' {
//     interface RpcMethods {
//       acme_account: { params: [account: Hex, block?: BlockParam]; result: { balance: Hex; nonce: Hex } };
//     }
//   }
//
// or pass a map of their own to methodCaller<AcmeMethods & RpcMethods>(kernel).

/** A `0x` hex string: QUANTITY (`0x0`, no leading zeros) or DATA (even length). */
export type Hex = `0x${string}`;
/** A block by number (QUANTITY), tag, or EIP-1898 object. */
export type BlockParam =
  | Hex
  | 'latest'
  | 'earliest'
  | 'pending'
  | 'safe'
  | 'finalized'
  | { blockHash: Hex; requireCanonical?: boolean }
  | { blockNumber: Hex };

/** One method's parameter tuple and result, as they go over the wire. */
export interface MethodSpec {
  params: readonly unknown[];
  result: unknown;
}

/** eth_call / eth_sendTransaction / eth_estimateGas's transaction object (fields all optional). */
export interface RpcTransactionRequest {
  from?: Hex;
  to?: Hex | null;
  gas?: Hex;
  gasPrice?: Hex;
  maxFeePerGas?: Hex;
  maxPriorityFeePerGas?: Hex;
  value?: Hex;
  data?: Hex;
  input?: Hex;
  nonce?: Hex;
  type?: Hex;
  accessList?: { address: Hex; storageKeys: Hex[] }[];
}

export interface RpcLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  transactionHash: Hex;
  transactionIndex: Hex;
  logIndex: Hex;
  removed: boolean;
}

export interface RpcReceipt {
  transactionHash: Hex;
  transactionIndex: Hex;
  blockHash: Hex;
  blockNumber: Hex;
  from: Hex;
  to: Hex | null;
  contractAddress: Hex | null;
  cumulativeGasUsed: Hex;
  gasUsed: Hex;
  effectiveGasPrice: Hex;
  logs: RpcLog[];
  logsBloom: Hex;
  status: Hex;
  type: Hex;
}

export interface RpcTransaction {
  hash: Hex;
  from: Hex;
  to: Hex | null;
  nonce: Hex;
  value: Hex;
  gas: Hex;
  input: Hex;
  type: Hex;
  blockHash: Hex | null;
  blockNumber: Hex | null;
  transactionIndex: Hex | null;
  [field: string]: unknown;
}

/** A block; `transactions` holds hashes, or the transactions with `true` as the second parameter. */
export interface RpcBlock {
  number: Hex;
  hash: Hex;
  parentHash: Hex;
  timestamp: Hex;
  gasLimit: Hex;
  gasUsed: Hex;
  miner: Hex;
  stateRoot: Hex;
  baseFeePerGas?: Hex;
  transactions: Hex[] | RpcTransaction[];
  [field: string]: unknown;
}

export interface RpcLogFilter {
  fromBlock?: BlockParam;
  toBlock?: BlockParam;
  blockHash?: Hex;
  address?: Hex | Hex[];
  topics?: (Hex | Hex[] | null)[];
}

/**
 * Built-in methods by name. An interface, so that plugins (and tests) can add to it with
 * `declare module '@ashlar/core' { interface RpcMethods { … } }`.
 */
export interface RpcMethods {
  eth_chainId: { params: []; result: Hex };
  eth_blockNumber: { params: []; result: Hex };
  eth_accounts: { params: []; result: Hex[] };
  eth_gasPrice: { params: []; result: Hex };
  eth_getBalance: { params: [address: Hex, block?: BlockParam]; result: Hex };
  eth_getTransactionCount: { params: [address: Hex, block?: BlockParam]; result: Hex };
  eth_getCode: { params: [address: Hex, block?: BlockParam]; result: Hex };
  eth_getStorageAt: { params: [address: Hex, slot: Hex, block?: BlockParam]; result: Hex };
  eth_call: { params: [call: RpcTransactionRequest, block?: BlockParam]; result: Hex };
  eth_estimateGas: { params: [call: RpcTransactionRequest, block?: BlockParam]; result: Hex };
  eth_sendTransaction: { params: [tx: RpcTransactionRequest]; result: Hex };
  eth_sendRawTransaction: { params: [raw: Hex]; result: Hex };
  eth_getTransactionByHash: { params: [hash: Hex]; result: RpcTransaction | null };
  eth_getTransactionReceipt: { params: [hash: Hex]; result: RpcReceipt | null };
  eth_getBlockByNumber: { params: [block: BlockParam, full: boolean]; result: RpcBlock | null };
  eth_getBlockByHash: { params: [hash: Hex, full: boolean]; result: RpcBlock | null };
  eth_getLogs: { params: [filter: RpcLogFilter]; result: RpcLog[] };
  net_version: { params: []; result: string };
  web3_clientVersion: { params: []; result: string };
  /** Mines one block (or as many as `{ blocks }` says); answers `0x0` as Hardhat. */
  evm_mine: { params: [timestamp?: Hex | number | { timestamp?: Hex | number; blocks?: Hex | number }]; result: Hex };
  evm_snapshot: { params: []; result: Hex };
  evm_revert: { params: [id: Hex]; result: boolean };
  /** Answers the total offset in seconds as a decimal string (`'3600'`), as Hardhat. */
  evm_increaseTime: { params: [seconds: Hex | number]; result: string };
  /** Answers the timestamp as a decimal string, as Hardhat. */
  evm_setNextBlockTimestamp: { params: [timestamp: Hex | number]; result: string };
  evm_setAutomine: { params: [on: boolean]; result: boolean };
  hardhat_mine: { params: [blocks?: Hex | number, interval?: Hex | number]; result: boolean };
  hardhat_setBalance: { params: [address: Hex, wei: Hex]; result: boolean };
  hardhat_setCode: { params: [address: Hex, code: Hex]; result: boolean };
  hardhat_setNonce: { params: [address: Hex, nonce: Hex]; result: boolean };
  hardhat_setStorageAt: { params: [address: Hex, slot: Hex, value: Hex]; result: boolean };
  hardhat_impersonateAccount: { params: [address: Hex]; result: boolean };
  hardhat_stopImpersonatingAccount: { params: [address: Hex]; result: boolean };
}

/** The parameter tuple of method `N` in map `M`. */
export type ParamsOf<M, N extends keyof M> = M[N] extends MethodSpec ? M[N]['params'] : readonly unknown[];
/** The result of method `N` in map `M`. */
export type ResultOf<M, N extends keyof M> = M[N] extends MethodSpec ? M[N]['result'] : unknown;
