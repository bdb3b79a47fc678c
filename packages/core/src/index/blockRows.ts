import type { Common } from '@ethereumjs/common';
import type { StoredBlock, StoredReceipt } from '../chain/types.js';
import type { CallFrame } from '../trace/callFrames.js';
import { objectArray } from '../chain/objectArray.js';
import { keyString, sameBytes } from './codec.js';
import { type InternalRow, internalRows } from './internalRows.js';
import { type DecodedTransfer, decodeTransfers } from './tokenEvents.js';
import { keepPrimed } from './keepPrimed.js';

export interface TxRow {
  index: number;
  from: Uint8Array;
  to: Uint8Array | null;
  created: Uint8Array | null;
  value: bigint;
  /** First 4 bytes of the input of a call, if it has them. */
  selector: Uint8Array | null;
  hasInput: boolean;
  gasUsed: bigint;
  /** A frame below the top one failed (Blockscout's `has_error_in_internal_txs`). */
  internalError: boolean;
  /** Position of `to` in the block's `touched` list (-1 without `to`): what was read of it at commit is there. */
  toSlot: number;
}

export interface LogRow {
  address: Uint8Array;
  /** Block-wide log index. */
  logIndex: number;
  txIndex: number;
}

export interface TransferRow extends DecodedTransfer {
  logIndex: number;
  txIndex: number;
}

export interface WithdrawalRow {
  index: bigint;
  validatorIndex: bigint;
  address: Uint8Array;
  amountGwei: bigint;
}

/** An address whose coin balance the block may have changed, with its last transaction in the block. */
export interface Touched {
  address: Uint8Array;
  txIndex: number | null;
}

/** A Touched, made here only (genesis accounts included) so that every one has one hidden class. */
export function touchedRow(address: Uint8Array, txIndex: number | null): Touched {
  return { address, txIndex };
}

// A block's first address touched again (an ERC-20 transfer's sender, named again by its log)
// reassigns txIndex; on a fresh node that happened only with the first token transfer, after
// value transfers had got indexBlock optimised on the field being written once, and V8 threw
// that code away. Reassigning it on a throwaway row at load makes the field mutable from the start.
keepPrimed(touchedRow(new Uint8Array(0), null)).txIndex = 0;

/**
 * What a block contributes to the index, read from the block and its receipts alone: the same
 * block always gives the same rows, so removing a block deletes exactly what adding it wrote.
 */
export interface BlockRows {
  number: bigint;
  timestamp: bigint;
  coinbase: Uint8Array;
  txs: TxRow[];
  logs: LogRow[];
  transfers: TransferRow[];
  withdrawals: WithdrawalRow[];
  /** Internal transactions (call frames as Blockscout lists them); none when the block has no frames. */
  internals: InternalRow[];
  touched: Touched[];
}

const NO_LOGS: StoredReceipt['logs'] = [];
const NO_WITHDRAWALS: NonNullable<StoredBlock['block']['withdrawals']> = [];

/** `frames`: the top call frame of each transaction (ChainStore.getCallFrames), if the block has them. */
export function blockRows(sb: StoredBlock, frames?: readonly (CallFrame | undefined)[]): BlockRows {
  const header = sb.block.header;
  // Arrays of objects from the start (objectArray): logs and transfers stay empty through value
  // transfers, and the loops of indexBlock and listEntries over them must not deopt when they fill.
  const txs: TxRow[] = objectArray();
  const logs: LogRow[] = objectArray();
  const transfers: TransferRow[] = objectArray();
  const touched = new TouchedSet();
  const touch = (address: Uint8Array, txIndex: number | null): number => touched.touch(address, txIndex);
  let logIndex = 0;
  const internals: InternalRow[] = objectArray();
  const list = sb.block.transactions;
  for (let i = 0; i < list.length; i++) {
    const tx = list[i];
    const receipt = sb.receipts[i];
    const from = sb.senders[i].bytes;
    const to = tx.to?.bytes ?? null;
    const created = receipt?.contractAddress ?? null;
    const frame = frames?.[i];
    // A plain call with no frame below it (a value transfer) has no internal transaction.
    const rows =
      frame && (frame.calls.length > 0 || frame.type === 'CREATE' || frame.type === 'CREATE2')
        ? internalRows(frame, i)
        : undefined;
    // Every field set once, in the literal: internalError was written after it, only from a
    // fresh node's first creation on, and that first write (V8 marks the field no longer
    // constant) threw away the optimised code of the indexer's functions that read rows.
    touch(from, i);
    txs.push({
      index: i,
      from,
      to,
      created,
      value: tx.value,
      selector: to && tx.data.length >= 4 ? tx.data.subarray(0, 4) : null,
      hasInput: tx.data.length > 0,
      gasUsed: receipt?.gasUsed ?? 0n,
      internalError: rows === undefined ? false : rows.internalError,
      toSlot: to ? touch(to, i) : -1,
    });
    if (created) touch(created, i);
    if (rows !== undefined) {
      for (let k = 0; k < rows.items.length; k++) {
        const r = rows.items[k];
        internals.push(r);
        // Value moved inside the transaction changes balances the receipt does not name.
        if (r.value > 0n || r.created) {
          touch(r.from, i);
          const other = r.to ?? r.created;
          if (other) touch(other, i);
        }
      }
    }
    // Indexed loops, not for-of: the iterator protocol is bytecode run (and compiled) per block.
    const receiptLogs = receipt === undefined ? NO_LOGS : receipt.logs;
    for (let l = 0; l < receiptLogs.length; l++) {
      const log = receiptLogs[l];
      logs.push({ address: log[0], logIndex, txIndex: i });
      const decoded = decodeTransfers(log);
      for (let k = 0; k < decoded.length; k++) {
        const d = decoded[k];
        // Field by field: a spread with added fields takes V8's generic copy (~4 µs an object).
        transfers.push({
          sub: d.sub,
          kind: d.kind,
          token: d.token,
          from: d.from,
          to: d.to,
          amount: d.amount,
          tokenId: d.tokenId,
          logIndex,
          txIndex: i,
        });
        touch(d.from, i);
        touch(d.to, i);
      }
      logIndex++;
    }
  }
  // Pushed into an array of this site, not mapped from the block's list: that list's hidden class
  // varies with where the block came from (a kept block's, a decoded one's), and with it the
  // result of map(); blockRows, indexBlock and listEntries then deopted ("wrong map") on a
  // fresh node's first blocks past the block cache.
  const withdrawals: WithdrawalRow[] = objectArray();
  const blockWithdrawals = sb.block.withdrawals ?? NO_WITHDRAWALS;
  for (let k = 0; k < blockWithdrawals.length; k++) {
    const w = blockWithdrawals[k];
    withdrawals.push({
      index: BigInt(w.index),
      validatorIndex: BigInt(w.validatorIndex),
      address: w.address.bytes,
      amountGwei: BigInt(w.amount),
    });
    touch(w.address.bytes, null);
  }
  touch(header.coinbase.bytes, null);
  return {
    number: sb.number,
    timestamp: header.timestamp,
    coinbase: header.coinbase.bytes,
    txs,
    logs,
    transfers,
    withdrawals,
    internals,
    touched: touched.list,
  };
}

/** Lists up to this many addresses are searched in order; past it they get a Map by key string. */
const LINEAR_TOUCHED = 8;

/**
 * The addresses a block touched, in first-touch order, each once (by bytes). A value transfer
 * touches three (sender, receiver, coinbase): compared byte by byte, with no key string and no
 * Map per block; a block of many token transfers switches to a Map past LINEAR_TOUCHED.
 */
export class TouchedSet {
  readonly list: Touched[] = objectArray();
  private byKey?: Map<string, number>;

  /** Touches `address` (its last transaction: `txIndex` unless null); answers its position in `list`. */
  touch(address: Uint8Array, txIndex: number | null): number {
    const list = this.list;
    const at = this.find(address);
    if (at >= 0) {
      if (txIndex !== null) list[at].txIndex = txIndex;
      return at;
    }
    const slot = list.length;
    list.push(touchedRow(address, txIndex));
    if (this.byKey) this.byKey.set(keyString(address), slot);
    else if (list.length > LINEAR_TOUCHED) {
      this.byKey = new Map();
      for (let i = 0; i < list.length; i++) this.byKey.set(keyString(list[i].address), i);
    }
    return slot;
  }

  private find(address: Uint8Array): number {
    if (this.byKey) return this.byKey.get(keyString(address)) ?? -1;
    const list = this.list;
    for (let i = 0; i < list.length; i++) if (sameBytes(list[i].address, address)) return i;
    return -1;
  }
}

/** Wei the block burnt (EIP-1559 base fee × gas used). */
export function burntFees(sb: StoredBlock): bigint {
  const h = sb.block.header;
  return (h.baseFeePerGas ?? 0n) * h.gasUsed;
}

/** Block reward of a proof-of-work block (none after the merge). */
export function blockReward(common: Common): bigint {
  if (common.gteHardfork('paris')) return 0n;
  try {
    return common.param('minerReward');
  } catch {
    return 0n;
  }
}
