import type { StoredBlock } from './types.js';

/** What a StoredBlock is made of; the optional fields may be left out. */
export type StoredBlockFields = Omit<StoredBlock, 'rlp' | 'callFrames' | 'preStateRoot'> &
  Partial<Pick<StoredBlock, 'rlp' | 'callFrames' | 'preStateRoot'>>;

/**
 * Every StoredBlock, whoever makes it (block assembly, genesis, a read from storage, a fork's
 * anchor, reserved blocks, an import), through one literal: every field written, in one order,
 * the absent ones as undefined. So all of them share one hidden class, and readers of blocks
 * (eth_blockNumber, receipts, the recent-tx index) stay monomorphic: blocks of several shapes
 * deoptimised their optimised code ("wrong map") when a fresh node's workload changed, and a
 * later `sb.callFrames = …` on a block made without that field gave it a new class again.
 */
export function storedBlock(f: StoredBlockFields): StoredBlock {
  return {
    block: f.block,
    number: f.number,
    hash: f.hash,
    senders: f.senders,
    receipts: f.receipts,
    totalDifficulty: f.totalDifficulty,
    size: f.size,
    rlp: f.rlp,
    callFrames: f.callFrames,
    preStateRoot: f.preStateRoot,
  };
}
