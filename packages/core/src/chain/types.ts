import type { Block } from '@ethereumjs/block';
import type { Address } from '@ethereumjs/util';
import type { CallFrame } from '../trace/callFrames.js';

/** A log as stored: [address, topics, data]. */
export type RawLog = [address: Uint8Array, topics: Uint8Array[], data: Uint8Array];

export interface StoredReceipt {
  /** 1 success, 0 failure; absent before Byzantium (see `root`). */
  status?: 0 | 1;
  /** Post-transaction state root; only before Byzantium. */
  root?: Uint8Array;
  cumulativeGasUsed: bigint;
  gasUsed: bigint;
  logs: RawLog[];
  bloom: Uint8Array;
  contractAddress?: Uint8Array;
  effectiveGasPrice: bigint;
  blobGasUsed?: bigint;
  blobGasPrice?: bigint;
  /** EVM error text of a failed transaction (e.g. `revert`, `out of gas`). */
  error?: string;
  /** Return data of a failed transaction: the revert bytes. */
  returnData?: Uint8Array;
}

/** A committed block with what every reader needs next to it, decoded once. */
export interface StoredBlock {
  block: Block;
  number: bigint;
  hash: Uint8Array;
  /** Recovered once when the block was built; never recovered again on reads. */
  senders: Address[];
  receipts: StoredReceipt[];
  totalDifficulty: bigint;
  /** RLP size in bytes. */
  size: number;
  /** The block's RLP when already at hand (built or read), so it is not serialized twice. */
  rlp?: Uint8Array;
  /**
   * Top call frame of each transaction, captured while the block was built (chain option
   * `callFrames`); written with the block. Absent on blocks read back from storage: read them
   * with `ChainService.getCallFrames`.
   */
  callFrames?: (CallFrame | undefined)[];
  /**
   * The state the block was built on, when it is not its parent's post-state: dev methods
   * (hardhat_setBalance, setCode …) edited the head's state between the two blocks. Replays
   * (traces, frames of blocks mined without them) must start there. Written with the block;
   * read back with `ChainStore.getPreStateRoot`.
   */
  preStateRoot?: Uint8Array;
}

/** Where a transaction lives. */
export interface TxLocation {
  block: StoredBlock;
  index: number;
}
