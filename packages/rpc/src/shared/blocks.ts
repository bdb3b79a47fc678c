import type { KernelServices, StoredBlock } from '@ashlar/core';
import { createBlock } from '@ethereumjs/block';
import type { BlockTagOrHashParam } from '../params/index.js';
import { type PendingBlockInput, toRpcPendingBlock } from '../format/index.js';
import type { RpcBlock } from '../format/index.js';
import { toBlockRef } from './state.js';

/** The block a parameter names, or undefined (no error: lookups answer null). */
export function findBlock(services: KernelServices, p: BlockTagOrHashParam): Promise<StoredBlock | undefined> {
  return services.chain.resolveBlock(toBlockRef(p));
}

export function isPending(p: BlockTagOrHashParam): boolean {
  return p.kind === 'tag' && p.tag === 'pending';
}

/**
 * What the next block would hold: the head's successor header with the pool's executable
 * transactions (not executed: gas used and roots are not known before mining).
 */
export function pendingBlock(services: KernelServices): PendingBlockInput {
  const chain = services.chain;
  const head = chain.head.block;
  const all = services.mempool.all().sort((a, b) => a.seq - b.seq);
  const header: Record<string, unknown> = {
    parentHash: head.hash(),
    number: head.header.number + 1n,
    timestamp: services.miner.nextBlockTimestamp(),
    gasLimit: services.miner.gasLimit,
    coinbase: services.miner.coinbase,
  };
  const baseFee = services.miner.nextBlockBaseFee();
  if (baseFee !== undefined) header.baseFeePerGas = baseFee;
  const block = createBlock(
    { header, transactions: all.map((p) => p.tx) },
    { common: chain.common, setHardfork: true },
  );
  return { block, senders: all.map((p) => p.sender) };
}

export function pendingRpcBlock(services: KernelServices, full: boolean): RpcBlock {
  return toRpcPendingBlock(pendingBlock(services), full);
}
