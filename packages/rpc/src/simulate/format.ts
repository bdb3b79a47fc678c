import { toData, toQuantity } from '@ashlar/core';
import { type RpcBlock, type RpcLog, formatLog, toRpcBlock } from '../format/index.js';
import type { SimulatedBlock } from './simulator.js';

/** A simulated block as geth prints it: a block object (no totalDifficulty) plus `calls`. */
export function formatSimulatedBlock(sim: SimulatedBlock, fullTransactions: boolean): RpcBlock & { calls: unknown[] } {
  const { block } = sim;
  const hash = block.hash();
  const stored = {
    block,
    number: block.header.number,
    hash,
    senders: sim.senders,
    receipts: [],
    totalDifficulty: 0n,
    size: block.serialize().length,
  };
  const ctx = {
    blockHash: toData(hash),
    blockNumber: toQuantity(block.header.number),
    blockTimestamp: toQuantity(block.header.timestamp),
  };
  const calls = sim.calls.map((c, i) => {
    const txHash = toData(block.transactions[i].hash());
    const logs: RpcLog[] = c.logs.map((l) => formatLog(l.log, ctx, txHash, toQuantity(i), l.index, false));
    const out: Record<string, unknown> = {
      returnData: toData(c.returnData),
      logs,
      gasUsed: toQuantity(c.gasUsed),
      maxUsedGas: toQuantity(c.maxUsedGas),
      status: toQuantity(c.status),
    };
    if (c.error) out.error = c.error;
    return out;
  });
  return { ...toRpcBlock(stored, fullTransactions, { totalDifficulty: false }), calls };
}
