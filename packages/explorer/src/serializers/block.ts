import type { StoredBlock } from '@ashlar/core';
import type { Facts } from '../Explorer.js';
import { refOf } from './addressRef.js';
import { dec, hex, isoTime, percent } from './format.js';

/** Gas target is half the limit (EIP-1559's elasticity multiplier). */
const ELASTICITY = 2n;

/** Fees of a block: what its transactions paid, what was burnt, what went to the miner. */
export function blockFees(sb: StoredBlock): { txFees: bigint; burnt: bigint; priority: bigint } {
  let txFees = 0n;
  for (const r of sb.receipts) txFees += r.gasUsed * r.effectiveGasPrice;
  const burnt = (sb.block.header.baseFeePerGas ?? 0n) * sb.block.header.gasUsed;
  return { txFees, burnt, priority: txFees > burnt ? txFees - burnt : 0n };
}

/**
 * A block as Blockscout serves it. Both names of a renamed field, with one value: spec §2.5's
 * `tx_count` and `tx_fees` and Blockscout 10's `transactions_count` and `transaction_fees`; and
 * the spec's `extra_data` and `state_root`, which Blockscout 10 dropped. The miner's reward on a
 * dev chain is the priority fees (plus the block reward before the merge).
 */
export function blockJson(sb: StoredBlock, facts: Facts, reward: bigint, internalTransactions: number | null) {
  const h = sb.block.header;
  const { txFees, burnt, priority } = blockFees(sb);
  const target = h.gasLimit / ELASTICITY;
  return {
    height: Number(sb.number),
    hash: hex(sb.hash),
    parent_hash: hex(h.parentHash),
    timestamp: isoTime(h.timestamp),
    tx_count: sb.block.transactions.length,
    transactions_count: sb.block.transactions.length,
    internal_transactions_count: internalTransactions,
    miner: refOf(h.coinbase.bytes, facts),
    size: sb.size,
    difficulty: dec(h.difficulty),
    total_difficulty: dec(sb.totalDifficulty),
    gas_used: dec(h.gasUsed),
    gas_limit: dec(h.gasLimit),
    gas_used_percentage: percent(h.gasUsed, h.gasLimit),
    gas_target_percentage: target === 0n ? 0 : percent(h.gasUsed - target, target),
    nonce: hex(h.nonce),
    base_fee_per_gas: h.baseFeePerGas === undefined ? null : dec(h.baseFeePerGas),
    burnt_fees: dec(burnt),
    burnt_fees_percentage: txFees === 0n ? null : percent(burnt, txFees),
    priority_fee: dec(priority),
    tx_fees: dec(txFees),
    transaction_fees: dec(txFees),
    rewards: [
      { type: 'Miner Reward', reward: dec(priority + reward), address_hash: refOf(h.coinbase.bytes, facts).hash },
    ],
    uncles_hashes: sb.block.uncleHeaders.map((u) => ({ hash: hex(u.hash()) })),
    withdrawals_count: sb.block.withdrawals === undefined ? null : sb.block.withdrawals.length,
    extra_data: hex(h.extraData),
    state_root: hex(h.stateRoot),
    type: 'block' as const,
    is_pending_update: false,
  };
}
