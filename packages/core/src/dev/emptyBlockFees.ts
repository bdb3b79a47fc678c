import { createBlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';

/** Longest schedule kept: past it the last value repeats (fees reach their floor long before). */
const MAX_STEPS = 4096;

/**
 * Base fees of consecutive empty blocks, starting with `first`: each is the one before less
 * 1/8 (EIP-1559 with no gas used), until the division stops changing it. A 1 gwei base fee
 * settles at 7 wei after ~150 blocks, so the list stays short whatever the range's length.
 */
export function baseFeeSchedule(first: bigint, common: Common): bigint[] {
  const denominator = common.param('baseFeeMaxChangeDenominator');
  const out = [first];
  let fee = first;
  while (out.length < MAX_STEPS) {
    const next = fee - fee / denominator;
    if (next === fee) break;
    out.push(next);
    fee = next;
  }
  return out;
}

/**
 * Excess blob gas of consecutive blob-less blocks, starting with `first`, until it stops
 * changing (0, or a fixed point under EIP-7918's reserve price). Computed by @ethereumjs's own
 * rule on bare headers; on a dev chain it is 0 from the start and the loop never runs.
 */
export function excessBlobGasSchedule(first: bigint, baseFee: bigint, common: Common): bigint[] {
  const out = [first];
  let excess = first;
  while (excess > 0n && out.length < MAX_STEPS) {
    const header = createBlockHeader(
      { number: 1n, excessBlobGas: excess, blobGasUsed: 0n, baseFeePerGas: baseFee },
      { common, setHardfork: true, skipConsensusFormatValidation: true },
    );
    const next = header.calcNextExcessBlobGas(common);
    if (next === excess) break;
    out.push(next);
    excess = next;
  }
  return out;
}
