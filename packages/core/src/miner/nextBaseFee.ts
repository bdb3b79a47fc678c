import type { BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';

/** The last parent asked about and its next base fee: headers are frozen and their Common is their own copy. */
let lastParent: BlockHeader | undefined;
let lastFee = 0n;

/**
 * `parent.calcNextBaseFee()`, computed once per parent: an automined transaction asks three
 * times for the same head (validation, pool ordering, the block's header), ~0.6 µs each. One
 * entry, compared by identity: the head is asked about until the next block replaces it. A
 * WeakMap keyed by every head took a new entry per block (an identity hash made for the new
 * header, the ephemeron table grown and swept): ~9 µs per automined block in a fresh profile.
 */
export function nextBaseFeeOf(parent: BlockHeader): bigint {
  if (parent === lastParent) return lastFee;
  const fee = parent.calcNextBaseFee();
  lastParent = parent;
  lastFee = fee;
  return fee;
}

/**
 * `parent.calcNextExcessBlobGas(common)`, without the fork's blob schedule looked up when the
 * parent had neither excess blob gas nor blobs: then the next excess is 0 under every rule
 * (EIP-4844's, EIP-7918's reserve price: both add to excess + used less a non-negative target,
 * floored at 0). A dev chain's blocks carry no blobs, and getBlobGasSchedule walks the
 * hardfork schedule (gteHardfork, param) on each call: ~3-4 us per automined block, twice.
 */
export function nextExcessBlobGasOf(parent: BlockHeader, common: Common): bigint {
  if ((parent.excessBlobGas ?? 0n) === 0n && (parent.blobGasUsed ?? 0n) === 0n) return 0n;
  return parent.calcNextExcessBlobGas(common);
}
