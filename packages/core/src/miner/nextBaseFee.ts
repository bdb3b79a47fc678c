import type { BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';

/** Next base fees by parent header: headers are frozen and their Common is their own copy. */
const byParent = new WeakMap<BlockHeader, bigint>();

/**
 * `parent.calcNextBaseFee()`, computed once per parent: an automined transaction asked three
 * times for the same head (validation, pool ordering, the block's header), ~0.6 µs each.
 */
export function nextBaseFeeOf(parent: BlockHeader): bigint {
  let fee = byParent.get(parent);
  if (fee === undefined) {
    fee = parent.calcNextBaseFee();
    byParent.set(parent, fee);
  }
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
