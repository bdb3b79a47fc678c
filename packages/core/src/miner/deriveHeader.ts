import type { BlockHeader } from '@ethereumjs/block';
import { cloneHeader } from './cloneHeader.js';

/** The header fields a block's execution fills in once its transactions have run. */
export interface SealedFields {
  stateRoot: Uint8Array;
  transactionsTrie: Uint8Array;
  receiptTrie: Uint8Array;
  logsBloom: Uint8Array;
  gasUsed: bigint;
  withdrawalsRoot?: Uint8Array;
  blobGasUsed?: bigint;
  requestsHash?: Uint8Array;
}

/**
 * The header of a block whose transactions ran under `base` (the same header data with gas used
 * 0 and empty roots): `base` with the execution's fields, and no cached hash. It equals what
 * createBlockHeader makes from the same data — a field left undefined keeps `base`'s value, which
 * is the default createBlockHeader would give it — without a second run of the constructor (a
 * Common copy, a hardfork lookup, every field converted and validated again: a few percent of an
 * automined transaction). Frozen like a constructed header; its hash is computed on first use.
 */
export function deriveHeader(base: BlockHeader, fields: SealedFields): BlockHeader {
  return cloneHeader(base, fields as unknown as Record<string, unknown>);
}
