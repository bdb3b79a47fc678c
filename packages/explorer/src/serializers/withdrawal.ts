import type { WithdrawalRecord } from '@ashlar/core';
import type { Facts } from '../Explorer.js';
import { refOf } from './addressRef.js';
import { dec, isoTime } from './format.js';

const GWEI = 1_000_000_000n;

/**
 * An EIP-4895 withdrawal (amount in wei). Inside a block's list Blockscout leaves out the
 * block's own number and time; `timestamp` is null-safe for the rest.
 */
export function withdrawalJson(w: WithdrawalRecord, facts: Facts, where?: { timestamp: bigint }) {
  const base = {
    index: Number(w.index),
    validator_index: Number(w.validatorIndex),
    amount: dec(w.amountGwei * GWEI),
    receiver: refOf(w.address, facts),
  };
  return where ? { ...base, block_number: Number(w.block), timestamp: isoTime(where.timestamp) } : base;
}
