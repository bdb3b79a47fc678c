import type { StoredBlock } from '../chain/types.js';

/**
 * Bounds of ChainStore's decoded-block cache. Reads of recent blocks (eth_getBlockByNumber,
 * receipts, the explorer) hit it; a miss decodes the block (~0.3 ms for one transfer). 1,024
 * blocks cover the reads of the peers' benchmark (the last 500 blocks, receipts of the last
 * 1,000 transactions) and cost ~8 MiB for one-transaction blocks; the byte bound keeps
 * big blocks from holding hundreds of MiB (2,048 blocks of 1,000 transfers each did).
 */
export const BLOCK_CACHE_BLOCKS = 1024;
export const BLOCK_CACHE_BYTES = 24 * 1024 * 1024;
/** Hash → number lookups (a 0x string and a bigint each, ~150 bytes). */
export const HASH_CACHE_ENTRIES = 8192;

/**
 * Estimated heap bytes of a decoded block: header and wrapper objects, its transactions and
 * receipts (a built block's fields each own a buffer, ~4x the RLP), and its logs.
 */
export function storedBlockWeight(sb: StoredBlock): number {
  let logs = 0;
  for (const r of sb.receipts) logs += r.logs.length;
  return 4096 + 4 * sb.size + 1024 * sb.receipts.length + 512 * logs;
}
