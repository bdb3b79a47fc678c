import type { BlockRef, KernelServices, StoredBlock } from '@ashlar/core';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { BlockTagOrHashParam } from '../params/index.js';

/** Parameter → core's block reference (the same union, kept apart so params stay core-free). */
export function toBlockRef(p: BlockTagOrHashParam): BlockRef {
  if (p.kind === 'hash') return { kind: 'hash', hash: p.hash };
  return p;
}

/**
 * Runs a state read at a block: the head through the chain lock (its state manager is the
 * live one), history on a view of the trie at that block's root.
 */
export async function readState<T>(
  services: KernelServices,
  ref: BlockRef,
  fn: (sm: MerkleStateManager, sb: StoredBlock) => Promise<T>,
): Promise<T> {
  const chain = services.chain;
  const sb = await chain.requireBlock(ref);
  if (chain.isHead(sb)) return chain.exclusive(async () => fn(chain.vm.stateManager as MerkleStateManager, sb));
  return fn(await chain.stateManagerFor(sb), sb);
}
