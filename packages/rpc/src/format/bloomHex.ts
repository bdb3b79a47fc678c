import { toData } from '@ashlar/core';
import type { Hex } from './types.js';

/** The hex of an empty 256-byte bloom, made once. */
const EMPTY_BLOOM: Hex = toData(new Uint8Array(256));

/**
 * A logs bloom in hex. Most receipts (every transfer) and many blocks have no logs: their
 * bloom is all zeros, answered with one shared string instead of encoding 256 bytes each time.
 */
export function bloomHex(bloom: Uint8Array): Hex {
  if (bloom.length === 256) {
    let i = 0;
    while (i < 256 && bloom[i] === 0) i++;
    if (i === 256) return EMPTY_BLOOM;
  }
  return toData(bloom);
}
