import { AshlarError, ErrorCodes, type KernelServices, type StoredBlock } from '@ashlar/core';
import type { BlockTagOrHashParam } from '../params/index.js';
import { findBlock } from '../shared/blocks.js';

/** The block a debug_getRaw* parameter names; a missing one is an error, as in geth. */
export async function rawBlockOf(services: KernelServices, p: BlockTagOrHashParam): Promise<StoredBlock> {
  const sb = await findBlock(services, p);
  if (sb) return sb;
  const what = p.kind === 'number' ? `#${p.number}` : p.kind === 'tag' ? p.tag : 'for hash';
  throw new AshlarError(ErrorCodes.BLOCK_NOT_FOUND, `block ${what} not found`);
}
