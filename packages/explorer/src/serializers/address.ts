import type { AddressRecord, ContractRecord, TokenRecord } from '@ashlar/core';
import type { ContractInfo } from '../verify/SmartContracts.js';
import { addressRef } from './addressRef.js';
import { checksum, dec, hex } from './format.js';
import { tokenJson } from './token.js';

/** An item of /addresses: the reference, its balance and transaction count (spec §2.5's `tx_count`, Blockscout 10's `transactions_count`). */
export function addressItem(
  address: Uint8Array,
  rec: AddressRecord | undefined,
  isContract: boolean,
  info?: ContractInfo,
) {
  const count = rec ? dec(rec.txCount) : '0';
  return {
    ...addressRef(address, isContract, info),
    coin_balance: rec?.hasBalance ? dec(rec.balance) : null,
    tx_count: count,
    transactions_count: count,
  };
}

export interface AddressFacts {
  address: Uint8Array;
  /** Live balance and code at the head. */
  balance: bigint;
  hasCode: boolean;
  rec: AddressRecord | undefined;
  contract: ContractRecord | undefined;
  creationTxHash: Uint8Array | null;
  token: TokenRecord | undefined;
  hasTokens: boolean;
  /** Verified name and proxy, when known. */
  info?: ContractInfo;
}

/**
 * /addresses/{hash}: an address the chain has never seen answers 200 with zeros and nulls, as
 * Blockscout does. Spec §2.5's `creation_tx_hash` is served beside Blockscout 10's
 * `creation_transaction_hash`, one value; its `tx_count` and `has_decompiled_code` too (Blockscout 10
 * dropped them).
 */
export function addressDetail(f: AddressFacts) {
  const rec = f.rec;
  const creation = f.creationTxHash ? hex(f.creationTxHash) : null;
  return {
    ...addressRef(f.address, f.hasCode || f.contract !== undefined, f.info),
    coin_balance: dec(f.balance),
    tx_count: rec ? dec(rec.txCount) : '0',
    exchange_rate: null,
    block_number_balance_updated_at: rec?.hasBalance ? Number(rec.balanceBlock) : null,
    creator_address_hash: f.contract?.creator ? checksum(f.contract.creator) : null,
    creation_tx_hash: creation,
    creation_transaction_hash: creation,
    creation_status: f.contract && f.hasCode ? ('success' as const) : null,
    token: f.token ? tokenJson(f.address, f.token) : null,
    has_logs: (rec?.logCount ?? 0n) > 0n,
    has_tokens: f.hasTokens,
    has_token_transfers: (rec?.transferCount ?? 0n) > 0n,
    has_validated_blocks: (rec?.validations ?? 0n) > 0n,
    has_beacon_chain_withdrawals: (rec?.withdrawalCount ?? 0n) > 0n,
    has_decompiled_code: false,
    watchlist_address_id: null,
  };
}

/** /addresses/{hash}/counters (all strings; zeros for an unknown address). */
export function addressCounters(rec: AddressRecord | undefined) {
  return {
    transactions_count: dec(rec?.txCount ?? 0n),
    token_transfers_count: dec(rec?.transferCount ?? 0n),
    gas_usage_count: dec(rec?.gasUsed ?? 0n),
    validations_count: dec(rec?.validations ?? 0n),
  };
}
