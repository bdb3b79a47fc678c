import { type TxKind, decodeTransfers } from '@ashlar/core';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToBigInt, eoaCode7702RecoverAuthority } from '@ethereumjs/util';
import { type AnyTx, Explorer, type Facts, type MinedTx, type PoolTx } from '../Explorer.js';
import { refOf } from './addressRef.js';
import { callDecoding, decodedRevert } from './decoded.js';
import { checksum, dec, hex, isoTime } from './format.js';
import { methodOf } from './methods.js';
import { type TransferView, tokenTransferJson } from './tokenTransfer.js';

/** A transaction view carries at most this many transfers (`token_transfers_overflow` says when there are more). */
export const TX_TRANSFERS_SHOWN = 50;

const feeFields = (tx: TypedTransaction) =>
  tx as unknown as { gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint };

/** The token transfers of a mined transaction, from its receipt's logs, in log order. */
export function transfersOf(t: MinedTx): TransferView[] {
  const out: TransferView[] = [];
  const method = methodOf(t.tx.to?.bytes, t.tx.data);
  t.receipt.logs.forEach((log, k) => {
    for (const d of decodeTransfers(log)) {
      out.push({
        ...d,
        logIndex: t.logBase + k,
        block: t.sb.number,
        blockHash: t.sb.hash,
        timestamp: t.sb.block.header.timestamp,
        txHash: t.tx.hash(),
        method,
      });
    }
  });
  return out;
}

/** Kinds of a transaction the index has not classified (pending): what the transaction itself shows. */
export function ownKinds(tx: TypedTransaction): TxKind[] {
  const out: TxKind[] = [];
  if (tx.value > 0n) out.push('coin_transfer');
  if (!tx.to) out.push('contract_creation');
  else if (tx.data.length > 0) out.push('contract_call');
  return out;
}

function authorizations(tx: TypedTransaction) {
  const list = (tx as { authorizationList?: Uint8Array[][] }).authorizationList;
  if (!list) return [];
  return list.map((item) => {
    const [chainId, address, nonce, yParity, r, s] = item;
    let authority: string | null = null;
    try {
      authority = checksum(eoaCode7702RecoverAuthority(item as never).toString());
    } catch {
      authority = null;
    }
    return {
      address_hash: checksum(address),
      authority: authority ?? checksum(new Uint8Array(20)),
      chain_id: Number(bytesToBigInt(chainId)),
      nonce: dec(bytesToBigInt(nonce)),
      r: dec(bytesToBigInt(r)),
      s: dec(bytesToBigInt(s)),
      v: Number(bytesToBigInt(yParity)),
      status: authority ? ('ok' as const) : ('invalid_signature' as const),
    };
  });
}

/** What a mined and a pooled transaction show alike. */
function common(tx: TypedTransaction, from: Uint8Array, facts: Facts) {
  const f = feeFields(tx);
  return {
    hash: hex(tx.hash()),
    type: tx.type,
    nonce: Number(tx.nonce),
    from: refOf(from, facts),
    to: tx.to ? refOf(tx.to.bytes, facts) : null,
    value: dec(tx.value),
    gas_limit: dec(tx.gasLimit),
    max_fee_per_gas: f.maxFeePerGas === undefined ? null : dec(f.maxFeePerGas),
    max_priority_fee_per_gas: f.maxPriorityFeePerGas === undefined ? null : dec(f.maxPriorityFeePerGas),
    raw_input: hex(tx.data),
    ...callDecoding(tx.to?.bytes, tx.data, facts),
    actions: [],
    exchange_rate: null,
    historic_exchange_rate: null,
    tx_tag: null,
    transaction_tag: null,
    has_error_in_internal_txs: false,
    has_error_in_internal_transactions: false,
    authorization_list: authorizations(tx),
    is_pending_update: false,
  };
}

function minedJson(t: MinedTx, facts: Facts) {
  const { tx, receipt, sb } = t;
  const internalError = Explorer.hasInternalError(facts, t);
  const kinds = Explorer.kindsOf(facts, t) ?? ownKinds(tx);
  const header = sb.block.header;
  const baseFee = header.baseFeePerGas ?? 0n;
  const price = receipt.effectiveGasPrice;
  const gasUsed = receipt.gasUsed;
  const failed = receipt.status === 0;
  const transfers = transfersOf(t);
  const created = receipt.contractAddress;
  return {
    ...common(tx, t.sender, facts),
    block: Number(sb.number),
    block_number: Number(sb.number),
    timestamp: isoTime(header.timestamp),
    confirmations: Number(facts.head - sb.number + 1n),
    confirmation_duration: [0, 0],
    position: t.index,
    has_error_in_internal_txs: internalError,
    has_error_in_internal_transactions: internalError,
    status: failed ? 'error' : 'ok',
    result: failed
      ? receipt.error === undefined || receipt.error === 'revert'
        ? 'Reverted'
        : receipt.error
      : 'success',
    revert_reason:
      failed && receipt.returnData && receipt.returnData.length > 0
        ? decodedRevert(tx.to?.bytes, receipt.returnData, facts)
        : null,
    created_contract: created ? refOf(created, facts) : null,
    gas_used: dec(gasUsed),
    gas_price: dec(price),
    base_fee_per_gas: header.baseFeePerGas === undefined ? null : dec(baseFee),
    priority_fee: dec((price > baseFee ? price - baseFee : 0n) * gasUsed),
    tx_burnt_fee: dec(baseFee * gasUsed),
    transaction_burnt_fee: dec(baseFee * gasUsed),
    fee: { type: 'actual' as const, value: dec(gasUsed * price) },
    tx_types: kinds,
    transaction_types: kinds,
    token_transfers:
      transfers.length === 0 ? null : transfers.slice(0, TX_TRANSFERS_SHOWN).map((v) => tokenTransferJson(v, facts)),
    token_transfers_overflow: transfers.length === 0 ? null : transfers.length > TX_TRANSFERS_SHOWN,
  };
}

function pendingJson(p: PoolTx, facts: Facts) {
  const tx = p.ptx.tx;
  const f = feeFields(tx);
  const price = f.gasPrice ?? f.maxFeePerGas ?? 0n;
  const kinds = ownKinds(tx);
  return {
    ...common(tx, p.ptx.sender.bytes, facts),
    block: null,
    block_number: null,
    timestamp: null,
    confirmations: 0,
    confirmation_duration: [],
    position: null,
    status: null,
    result: 'pending',
    revert_reason: null,
    created_contract: null,
    gas_used: null,
    gas_price: dec(price),
    base_fee_per_gas: null,
    priority_fee: null,
    tx_burnt_fee: null,
    transaction_burnt_fee: null,
    fee: { type: 'maximum' as const, value: dec(tx.gasLimit * price) },
    tx_types: kinds,
    transaction_types: kinds,
    token_transfers: null,
    token_transfers_overflow: null,
  };
}

/**
 * A transaction as Blockscout serves it, with both names, one value, where Blockscout 10 renamed
 * spec §2.5's fields: `block`/`block_number`, `tx_burnt_fee`/`transaction_burnt_fee`,
 * `tx_types`/`transaction_types`, `tx_tag`/`transaction_tag`,
 * `has_error_in_internal_txs`/`has_error_in_internal_transactions`. A pending transaction shows
 * its maximum fee; a mined one its actual fee.
 */
export function txJson(t: AnyTx, facts: Facts) {
  return t.kind === 'mined' ? minedJson(t, facts) : pendingJson(t, facts);
}
