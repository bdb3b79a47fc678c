// Its own module so EventBus (which carries it) and chainLogs (which builds it) import no cycle.
type Hex = `0x${string}`;

/** A log as a plugin reads it: decoded from the receipt's byte tuple, with where it was emitted. */
export interface ChainLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: bigint;
  blockHash: Hex;
  transactionHash: Hex;
  /** Position of the transaction in its block. */
  transactionIndex: number;
  /** Position of the log in its block (across transactions), as eth_getLogs numbers it. */
  logIndex: number;
}
