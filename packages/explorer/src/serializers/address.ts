import type { AddressRecord, ContractRecord, TokenRecord } from '@ashlar/core';
import type { ContractInfo } from '../verify/SmartContracts.js';
import { addressRef } from './addressRef.js';
import { checksum, dec, hex } from './format.js';
import { tokenJson } from './token.js';

/** An item of /addresses: the reference, its balance and transaction count (`tx_count`, spec §2.5's name). */
export function addressItem(
  address: Uint8Array,
  rec: AddressRecord | undefined,
  isContract: boolean,
  info?: ContractInfo,
) {
  return {
    ...addressRef(address, isContract, info),
    coin_balance: rec?.hasBalance ? dec(rec.balance) : null,
    tx_count: rec ? dec(rec.txCount) : '0',
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
 * Blockscout does. `creation_tx_hash`, `tx_count` and `has_decompiled_code` are spec §2.5's
 * fields (Blockscout 10: `creation_transaction_hash`; the other two dropped).
 */
export function addressDetail(f: AddressFacts) {
  const rec = f.rec;
  return {
    ...addressRef(f.address, f.hasCode || f.contract !== undefined, f.info),
    coin_balance: dec(f.balance),
    tx_count: rec ? dec(rec.txCount) : '0',
    exchange_rate: null,
    block_number_balance_updated_at: rec?.hasBalance ? Number(rec.balanceBlock) : null,
    creator_address_hash: f.contract?.creator ? checksum(f.contract.creator) : null,
    creation_tx_hash: f.creationTxHash ? hex(f.creationTxHash) : null,
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
