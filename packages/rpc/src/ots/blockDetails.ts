import { type KernelServices, type StoredBlock, blockReward, toQuantity } from '@ashlar/core';
import { toRpcBlock } from '../format/index.js';

/**
 * Erigon's ots_getBlockDetails result: the block without its transactions (their count in
 * `transactionCount`) and with `logsBloom` null, the issuance (block and uncle rewards: none
 * after the merge) and `totalFees`, what the senders paid (gas used × effective gas price,
 * base fee included).
 */
export function blockDetails(services: KernelServices, sb: StoredBlock) {
  const { transactions: _txs, ...block } = toRpcBlock(sb, false);
  const reward = blockReward(services.chain.common);
  let fees = 0n;
  for (const r of sb.receipts) fees += r.gasUsed * r.effectiveGasPrice;
  return {
    block: { ...block, logsBloom: null, transactionCount: sb.block.transactions.length },
    issuance: { blockReward: toQuantity(reward), uncleReward: '0x0', issuance: toQuantity(reward) },
    totalFees: toQuantity(fees),
  };
}
