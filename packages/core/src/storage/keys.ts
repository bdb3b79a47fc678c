// The whole key schema in one place. Numbers in keys are 8-byte big-endian so that
// lexicographic order is numeric order and newest-first listings are reverse range scans.
import { concat, u32, u64 } from '../util/hex.js';

export const SUBLEVELS = {
  /** block number (u64) → StoredBlock record (RLP: block, senders, total difficulty) */
  blocks: 'b',
  /** block hash (32) → block number (u64) */
  hashes: 'h',
  /** tx hash (32) → block number (u64) + index (u32) */
  txs: 't',
  /** block number (u64) → receipts of the block (RLP list) */
  receipts: 'r',
  /** trie node hash / code key → node bytes (the state trie, archive) */
  state: 's',
  /** small named values: head, genesis, config fingerprint */
  meta: 'm',
} as const;

export const META = {
  head: new TextEncoder().encode('head'),
  genesis: new TextEncoder().encode('genesis'),
  /** state root of the head, which dev methods (setBalance …) may move without a block */
  headState: new TextEncoder().encode('headState'),
} as const;

export const blockKey = (n: bigint): Uint8Array => u64(n);
export const txKeyValue = (n: bigint, index: number): Uint8Array => concat(u64(n), u32(index));
