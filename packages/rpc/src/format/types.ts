/** 0x-prefixed lowercase hex (QUANTITY or DATA). */
export type Hex = `0x${string}`;

export interface RpcAccessListEntry {
  address: Hex;
  storageKeys: Hex[];
}

export interface RpcAuthorization {
  chainId: Hex;
  address: Hex;
  nonce: Hex;
  yParity: Hex;
  r: Hex;
  s: Hex;
}

/** Transaction object (eth_getTransactionByHash & co.); block fields are null while pending. */
export interface RpcTransaction {
  blockHash: Hex | null;
  blockNumber: Hex | null;
  blockTimestamp: Hex | null;
  from: Hex;
  gas: Hex;
  gasPrice: Hex;
  maxFeePerGas?: Hex;
  maxPriorityFeePerGas?: Hex;
  maxFeePerBlobGas?: Hex;
  hash: Hex;
  input: Hex;
  nonce: Hex;
  to: Hex | null;
  transactionIndex: Hex | null;
  value: Hex;
  type: Hex;
  accessList?: RpcAccessListEntry[];
  chainId?: Hex;
  blobVersionedHashes?: Hex[];
  authorizationList?: RpcAuthorization[];
  v: Hex;
  r: Hex;
  s: Hex;
  yParity?: Hex;
}

export interface RpcWithdrawal {
  index: Hex;
  validatorIndex: Hex;
  address: Hex;
  amount: Hex;
}

/** Block object (eth_getBlockByNumber / eth_getBlockByHash). Pending blocks have null number/hash/nonce/logsBloom. */
export interface RpcBlock {
  number: Hex | null;
  hash: Hex | null;
  parentHash: Hex;
  nonce: Hex | null;
  mixHash: Hex;
  sha3Uncles: Hex;
  logsBloom: Hex | null;
  transactionsRoot: Hex;
  stateRoot: Hex;
  receiptsRoot: Hex;
  miner: Hex;
  difficulty: Hex;
  totalDifficulty?: Hex | null;
  extraData: Hex;
  size: Hex;
  gasLimit: Hex;
  gasUsed: Hex;
  timestamp: Hex;
  transactions: Hex[] | RpcTransaction[];
  uncles: Hex[];
  baseFeePerGas?: Hex;
  withdrawalsRoot?: Hex;
  withdrawals?: RpcWithdrawal[];
  blobGasUsed?: Hex;
  excessBlobGas?: Hex;
  parentBeaconBlockRoot?: Hex;
  requestsHash?: Hex;
  blockAccessListHash?: Hex;
  slotNumber?: Hex;
}

export interface RpcLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  transactionHash: Hex;
  transactionIndex: Hex;
  blockHash: Hex;
  blockTimestamp: Hex;
  logIndex: Hex;
  removed: boolean;
}

export interface RpcReceipt {
  blockHash: Hex;
  blockNumber: Hex;
  contractAddress: Hex | null;
  cumulativeGasUsed: Hex;
  effectiveGasPrice: Hex;
  from: Hex;
  gasUsed: Hex;
  logs: RpcLog[];
  logsBloom: Hex;
  /** Post-Byzantium receipts. */
  status?: Hex;
  /** Pre-Byzantium receipts: intermediate state root instead of `status`. */
  root?: Hex;
  to: Hex | null;
  transactionHash: Hex;
  transactionIndex: Hex;
  type: Hex;
  blobGasUsed?: Hex;
  blobGasPrice?: Hex;
}
