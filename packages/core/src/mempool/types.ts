import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';

export interface PendingTx {
  tx: TypedTransaction;
  sender: Address;
  hash: Uint8Array;
  hashHex: string;
  /** Order of arrival, to keep equal-fee transactions first-come first-served. */
  seq: number;
  /** The transaction's canonical encoding as received (saves re-serialising it for the block's trie and RLP). */
  raw?: Uint8Array;
  /** Sent unsigned for an impersonated account (dev methods). */
  impersonated?: boolean;
  /**
   * When it entered the pool (ms since the epoch; Blockscout's `inserted_at` of a pending
   * transaction). Set by TxService, where every pooled transaction is made.
   */
  arrivedAt?: number;
}
