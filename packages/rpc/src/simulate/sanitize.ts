import { AshlarError, ErrorCodes } from '@ashlar/core';
import type { SimBlock } from './params.js';

/** Most blocks one request may simulate (counted from the base block, gaps included). */
export const MAX_SIMULATED_BLOCKS = 256n;
/** Seconds between simulated blocks whose time is not given. */
export const TIME_STEP = 12n;

/** A block with its number and time decided. */
export interface PlannedBlock extends SimBlock {
  number: bigint;
  time: bigint;
}

/**
 * Numbers and times for every block, as geth's simulator decides them: a block without a
 * number follows the previous one, gaps are filled with empty blocks, times default to the
 * previous time + 12 s; numbers and times must increase.
 */
export function planBlocks(blocks: SimBlock[], base: { number: bigint; time: bigint }): PlannedBlock[] {
  const out: PlannedBlock[] = [];
  let prevNumber = base.number;
  let prevTime = base.time;
  for (const block of blocks) {
    const number = block.overrides.number ?? prevNumber + 1n;
    if (number <= prevNumber)
      throw new AshlarError(
        ErrorCodes.SIM_BLOCK_NUMBER_ORDER,
        `block numbers must be in order: ${number} <= ${prevNumber}`,
      );
    if (number - base.number > MAX_SIMULATED_BLOCKS)
      throw new AshlarError(ErrorCodes.SIM_TOO_MANY_BLOCKS, 'too many blocks');
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += TIME_STEP;
      out.push({ overrides: {}, calls: [], number: n, time: prevTime });
    }
    const time = block.overrides.time ?? prevTime + TIME_STEP;
    if (block.overrides.time !== undefined && time <= prevTime)
      throw new AshlarError(
        ErrorCodes.SIM_BLOCK_TIMESTAMP_ORDER,
        `block timestamps must be in order: ${time} <= ${prevTime}`,
      );
    out.push({ ...block, number, time });
    prevNumber = number;
    prevTime = time;
  }
  return out;
}
