import type { Common } from '@ethereumjs/common';
import type { StoredBlock } from '../chain/types.js';
import type { BatchWriter } from './BatchWriter.js';
import { type BlockRows, type Touched, blockReward, burntFees, touchedRow } from './blockRows.js';
import { type BlockScope, isZero } from './BlockScope.js';
import { concat, keyString, sameBytes, u64 } from './codec.js';
import { META_KEYS, dayOf, keys } from './indexKeys.js';
import { listEntries } from './listEntries.js';
import { keepPrimed } from './keepPrimed.js';
import {
  type ContractRecord,
  type GlobalRecord,
  INTERNAL_ERROR_BIT,
  encodeCoinBalance,
  encodeContract,
  type TokenRecord,
  transferTokenType,
  txKindBit,
} from './records.js';
import type { StateReader } from './StateReader.js';
import { markTokenCreation } from './tokenCreation.js';
import { readTokenMetadata } from './tokenMetadata.js';

export interface IndexBlockInput {
  sb: StoredBlock;
  rows: BlockRows;
  reader: StateReader;
  common: Common;
  /** Genesis only: the allocated accounts and the contracts it deploys. */
  genesis?: { accounts: Uint8Array[]; contracts: Uint8Array[] };
}

/**
 * Adds one block to the index: the block's list entries, and every counter and balance it moves.
 * The records it changes (addresses, tokens, totals, daily counters) stay in `scope`, which the
 * caller keeps over a batch of blocks and writes once with `endIndexBatch`.
 *
 * The transactions, and what value transfers never exercise (token transfers, logs, internal
 * creations, withdrawals), run in async functions of their own, called for every block: V8 does
 * not inline an async function that can suspend (each awaits), so when the first creation or
 * token transfer reaches code that had no feedback yet (a contract's code looked up, a creation
 * recorded), only that small function is thrown away and recompiled, not this one (~40-400 ms of
 * TurboFan a compile on a fresh node).
 */
export async function indexBlock(scope: BlockScope, input: IndexBlockInput): Promise<void> {
  const { sb, rows, reader } = input;
  const w = scope.w;
  const B = rows.number;
  const totals = scope.loadedTotals() ?? (await scope.totals());
  // Tokens first: transaction kinds (token_creation) and holder counts depend on them. The async
  // helpers are called for every block, a value transfer's too (where they write nothing): called
  // only for blocks with token transfers or events, their call sites had no feedback in the code
  // V8 optimised while a fresh node mined value transfers, and the first ERC-20 block threw that
  // code away (~25 ms of TurboFan to compile it again).
  const { newTokens, hasTransfers } = await indexTokenTransfers(w, scope, rows, reader, totals);

  const kinds = await indexTxs(scope, rows, reader, hasTransfers);
  await countEvents(w, scope, rows, newTokens, kinds);
  (scope.loaded(rows.coinbase) ?? (await scope.address(rows.coinbase))).validations++;

  let touched: Touched[] = rows.touched;
  if (input.genesis) {
    touched = [...touched, ...input.genesis.accounts.map((address) => touchedRow(address, null))];
    for (const c of input.genesis.contracts) {
      touched.push(touchedRow(c, null));
      w.put('idxContract', c, encodeContract({ creator: null, block: 0n, txIndex: null }));
    }
  }
  for (let slot = 0; slot < touched.length; slot++) {
    const t = touched[slot];
    const rec = scope.loaded(t.address) ?? (await scope.address(t.address));
    const value = reader.knownBalance(slot) ?? (await reader.balance(t.address));
    const first = !rec.hasBalance;
    const delta = value - (first ? 0n : rec.balance);
    if (!first && delta === 0n) continue;
    // The balance rank moves at the scope's flush, from the balance before the batch to the last one.
    w.put(
      'idxCoinHistory',
      keys.coinHistory(t.address, B),
      encodeCoinBalance({ block: B, value, delta, txIndex: t.txIndex, first }),
    );
    rec.hasBalance = true;
    rec.balance = value;
    rec.balanceBlock = B;
    if (first) totals.addressCount++;
    if (input.genesis) totals.coinSupply += value;
  }

  listEntries(w, rows, kinds, 'put');

  const gasUsed = sb.block.header.gasUsed;
  totals.txCount += BigInt(rows.txs.length);
  totals.gasUsed += gasUsed;
  totals.transferCount += BigInt(rows.transfers.length);
  let withdrawn = 0n;
  const withdrawals = rows.withdrawals;
  for (let i = 0; i < withdrawals.length; i++) withdrawn += withdrawals[i].amountGwei * 1_000_000_000n;
  if (B > 0n) totals.coinSupply += withdrawn + blockReward(input.common) - burntFees(sb);

  const dayNumber = dayOf(rows.timestamp);
  const day = scope.loadedDay(dayNumber) ?? (await scope.daily(dayNumber));
  day.txCount += BigInt(rows.txs.length);
  day.gasUsed += gasUsed;
}

/** Writes what a batch of blocks changed (`scope`) and the index head: `last`, the batch's last block. */
export function endIndexBatch(scope: BlockScope, last: StoredBlock): void {
  scope.flush();
  scope.w.put('idxMeta', META_KEYS.head, concat(u64(last.number), last.hash));
}

type TokenTransfersResult = { newTokens: ReadonlySet<string>; hasTransfers: ReadonlySet<number> };

// The result's fields held NO_TRANSFERS's sets all through value transfers, and V8 tracked them
// as holding that one class; the first block with token transfers widened them, which threw away
// indexBlock's code optimised on the narrow type. A throwaway result of the same shape holding
// null first gives the fields their wide type at load.
{
  const primer: Record<keyof TokenTransfersResult, unknown> = keepPrimed({ newTokens: null, hasTransfers: null });
  primer.newTokens = primer.hasTransfers;
}

const NO_TRANSFERS: TokenTransfersResult = {
  newTokens: new Set(),
  hasTransfers: new Set(),
};

/**
 * The block's token transfers: new tokens, transfer counts, holdings, supply. Answers the new
 * tokens (by keyString) and the indexes of the transactions with transfers.
 */
async function indexTokenTransfers(
  w: BatchWriter,
  scope: BlockScope,
  rows: BlockRows,
  reader: StateReader,
  totals: GlobalRecord,
): Promise<TokenTransfersResult> {
  // A block without token transfers (every value transfer) allocates nothing here.
  if (rows.transfers.length === 0) return NO_TRANSFERS;
  const B = rows.number;
  const newTokens = new Set<string>();
  const hasTransfers = new Set(rows.transfers.map((t) => t.txIndex));
  for (const t of rows.transfers) {
    const k = keyString(t.token);
    if (newTokens.has(k) || (await scope.token(t.token))) continue;
    const meta = await readTokenMetadata(reader, t.token, transferTokenType(t.kind));
    const rec: TokenRecord = { ...meta, seq: Number(totals.tokenCount), firstBlock: B, holders: 0n, transfers: 0n };
    await scope.setToken(t.token, rec);
    totals.tokenCount++;
    newTokens.add(k);
    await markTokenCreation(w, t.token, B, true);
  }
  for (const t of rows.transfers) {
    const rec = (await scope.token(t.token)) as TokenRecord;
    rec.transfers++;
    const id = t.kind === 'erc1155-single' || t.kind === 'erc1155-batch' ? t.tokenId : null;
    await scope.moveHolding(t.token, rec, t.from, id, -t.amount);
    await scope.moveHolding(t.token, rec, t.to, id, t.amount);
    // A new token's supply was read after this block: its mints are in it already.
    if (rec.totalSupply !== null && !newTokens.has(keyString(t.token))) {
      if (isZero(t.from)) rec.totalSupply += t.amount;
      if (isZero(t.to)) rec.totalSupply -= t.amount;
    }
    (scope.loaded(t.from) ?? (await scope.address(t.from))).transferCount++;
    if (!sameBytes(t.from, t.to)) (scope.loaded(t.to) ?? (await scope.address(t.to))).transferCount++;
  }
  return { newTokens, hasTransfers };
}

// The kinds' bits, computed once (constants, not a call per kind: a call value transfers never
// reach has no feedback in indexTxs's optimised code, and V8 throws that code away at it).
const COIN_TRANSFER_BIT = txKindBit('coin_transfer');
const CONTRACT_CREATION_BIT = txKindBit('contract_creation');
const CONTRACT_CALL_BIT = txKindBit('contract_call');
const TOKEN_TRANSFER_BIT = txKindBit('token_transfer');
const TOKEN_CREATION_BIT = txKindBit('token_creation');

/** The block's transactions: each one's kinds mask (returned, by index) and its addresses' counters. */
async function indexTxs(
  scope: BlockScope,
  rows: BlockRows,
  reader: StateReader,
  hasTransfers: ReadonlySet<number>,
): Promise<number[]> {
  const kinds: number[] = [];
  const txs = rows.txs;
  for (let i = 0; i < txs.length; i++) {
    const tx = txs[i];
    // Asked for every transaction (no await; undefined where not read, a creation's -1 slot
    // too), used only for a call with input: asked only there, the call had no feedback in code
    // V8 optimised while a fresh node mined value transfers, thrown away at its first contract call.
    const knownCode = reader.knownHasCode(tx.toSlot);
    const to = tx.to;
    const isCall = !!to && tx.hasInput && (knownCode ?? (await reader.hasCode(to)));
    // One expression of bits, each 0 or set, for every transaction: an `|=` that value transfers
    // never run had no feedback either (a deopt at the first creation or contract call).
    const mask =
      (tx.value > 0n ? COIN_TRANSFER_BIT : 0) |
      (!to ? CONTRACT_CREATION_BIT : 0) |
      (isCall ? CONTRACT_CALL_BIT : 0) |
      (hasTransfers.has(tx.index) ? TOKEN_TRANSFER_BIT : 0) |
      (tx.internalError ? INTERNAL_ERROR_BIT : 0);
    kinds.push(mask);
    const from = scope.loaded(tx.from) ?? (await scope.address(tx.from));
    from.txCount++;
    from.gasUsed += tx.gasUsed;
    // tx.created read for every transaction (after `??` it was read first at the first creation).
    const created = tx.created;
    const receiver = to ?? created;
    if (receiver && !sameBytes(receiver, tx.from))
      (scope.loaded(receiver) ?? (await scope.address(receiver))).txCount++;
  }
  return kinds;
}

/**
 * The block's creation transactions: their contract records, and the token_creation bit of
 * those that created a token. Apart from indexTxs, whose code V8 optimises on value transfers:
 * this work, first reached at a node's first creation, threw that code away ('insufficient
 * type feedback'); here it runs in countEvents (see there).
 */
function recordCreations(w: BatchWriter, rows: BlockRows, newTokens: ReadonlySet<string>, kinds: number[]): void {
  const txs = rows.txs;
  for (let i = 0; i < txs.length; i++) {
    const tx = txs[i];
    const created = tx.created;
    if (!created) continue;
    if (newTokens.has(keyString(created))) kinds[i] |= TOKEN_CREATION_BIT;
    const c: ContractRecord = { creator: tx.from, block: rows.number, txIndex: tx.index };
    w.put('idxContract', created, encodeContract(c));
  }
}

/**
 * The block's creations (recordCreations: first, as before), contracts created by contracts, and
 * the log and withdrawal counts of the addresses named. recordCreations runs from here, not from
 * indexBlock: inlined into indexBlock, its creation path (no feedback after value transfers) threw
 * indexBlock's code away at a fresh node's first deployment ('insufficient type feedback' at
 * newTokens.has); this small async function, not inlined, is the one recompiled.
 */
async function countEvents(
  w: BatchWriter,
  scope: BlockScope,
  rows: BlockRows,
  newTokens: ReadonlySet<string>,
  kinds: number[],
): Promise<void> {
  recordCreations(w, rows, newTokens, kinds);
  const B = rows.number;
  // A creation transaction's own contract is flagged by indexBlock.
  for (const it of rows.internals) {
    if (it.index === 0 || !it.created || !it.effective) continue;
    w.put('idxContract', it.created, encodeContract({ creator: it.from, block: B, txIndex: it.txIndex }));
  }
  for (const log of rows.logs) (await scope.address(log.address)).logCount++;
  for (const wd of rows.withdrawals) (await scope.address(wd.address)).withdrawalCount++;
}
