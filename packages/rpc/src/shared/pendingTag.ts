import type { ExecTarget, KernelServices } from '@ashlar/core';
import type { BlockTagOrHashParam, BlockTagParam } from '../params/index.js';
import { toBlockRef } from './state.js';

/** Frozen `pending` tag: eth_estimateGas's default, as Hardhat's node estimates for the next block. */
export const PENDING: BlockTagParam = Object.freeze({ kind: 'tag', tag: 'pending' } as const);

/** Where a call runs: "pending" is the next block (see Executor), anything else a stored block. */
export async function execTarget(services: KernelServices, block: BlockTagOrHashParam): Promise<ExecTarget> {
  if (block.kind === 'tag' && block.tag === 'pending') return 'pending';
  return services.chain.requireBlock(toBlockRef(block));
}
