import type { Explorer } from '../Explorer.js';

/**
 * The lowest block number whose timestamp is at or after `seconds` (the head's number + 1 when
 * none is). Block timestamps never decrease along the chain, so a binary search reads O(log n)
 * blocks: day windows (/transactions/stats, balance by day) cost that, not a walk of the chain.
 */
export async function firstBlockAtOrAfter(ex: Explorer, seconds: bigint): Promise<bigint> {
  let lo = 0n;
  let hi = ex.head.number + 1n;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    const sb = await ex.block(mid);
    if (sb && sb.block.header.timestamp >= seconds) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}
