import type { BatchWriter } from './BatchWriter.js';
import type { BlockRows } from './blockRows.js';
import { u8, u32 } from './codec.js';
import { ROLE_FROM, ROLE_TO, internalPos, keys, logPos, transferPos, txPos } from './indexKeys.js';
import type { IndexTable } from './IndexStore.js';
import { TX_KINDS, encodeTransfer, encodeWithdrawal, tokenTypeByte, transferTokenType } from './records.js';

const EMPTY = new Uint8Array(0);

/**
 * The append-only list entries of a block: written when it is indexed, deleted — the same
 * keys, derived the same way — when it is removed. `kinds[i]` is transaction i's kinds mask.
 */
export function listEntries(w: BatchWriter, rows: BlockRows, kinds: number[], mode: 'put' | 'del'): void {
  // Indexed loops and one module-level writer, not for-of and a closure per call: the iterator
  // protocol of each for-of is bytecode V8 runs and compiles once per block (this function was
  // ~1.6 KB of bytecode).
  const put = mode === 'put';
  const B = rows.number;
  const txs = rows.txs;
  for (let i = 0; i < txs.length; i++) {
    const tx = txs[i];
    const pos = txPos(B, tx.index);
    const mask = kinds[tx.index] ?? 0;
    write(w, put, 'idxTx', pos, u8(mask));
    for (let bit = 0; bit < TX_KINDS.length; bit++)
      if (mask & (1 << bit)) write(w, put, 'idxTxKind', keys.txKind(bit, pos), EMPTY);
    if (tx.selector) write(w, put, 'idxTxMethod', keys.txMethod(tx.selector, pos), EMPTY);
    write(w, put, 'idxAddrTx', keys.addrTx(tx.from, ROLE_FROM, pos), EMPTY);
    const receiver = tx.to ?? tx.created;
    if (receiver) write(w, put, 'idxAddrTx', keys.addrTx(receiver, ROLE_TO, pos), EMPTY);
  }
  if (rows.internals.length > 0) internalEntries(w, put, B, rows);
  const logs = rows.logs;
  for (let i = 0; i < logs.length; i++) {
    const log = logs[i];
    write(w, put, 'idxAddrLog', keys.addrLog(log.address, logPos(B, log.logIndex)), u32(log.txIndex));
  }
  const transfers = rows.transfers;
  for (let i = 0; i < transfers.length; i++) {
    const t = transfers[i];
    const pos = transferPos(B, t.logIndex, t.sub);
    const type = tokenTypeByte(transferTokenType(t.kind));
    write(w, put, 'idxTransfer', pos, put ? encodeTransfer(t) : EMPTY);
    write(w, put, 'idxTokenTransfer', keys.tokenTransfer(t.token, pos), EMPTY);
    write(w, put, 'idxAddrTransfer', keys.addrTransfer(t.from, type, ROLE_FROM, pos), EMPTY);
    write(w, put, 'idxAddrTransfer', keys.addrTransfer(t.to, type, ROLE_TO, pos), EMPTY);
    write(w, put, 'idxAddrTokenTransfer', keys.addrTokenTransfer(t.from, t.token, ROLE_FROM, pos), EMPTY);
    write(w, put, 'idxAddrTokenTransfer', keys.addrTokenTransfer(t.to, t.token, ROLE_TO, pos), EMPTY);
  }
  if (rows.withdrawals.length > 0) withdrawalEntries(w, put, B, rows);
  write(w, put, 'idxValidated', keys.validated(rows.coinbase, B), EMPTY);
}

/** A put of `v`, or (removing a block) a delete of the same key. */
function write(w: BatchWriter, put: boolean, t: IndexTable, k: Uint8Array, v: Uint8Array): void {
  if (put) w.put(t, k, v);
  else w.del(t, k);
}

function internalEntries(w: BatchWriter, put: boolean, B: bigint, rows: BlockRows): void {
  for (const it of rows.internals) {
    const pos = internalPos(B, it.txIndex, it.index);
    write(w, put, 'idxInternal', pos, EMPTY);
    write(w, put, 'idxAddrInternal', keys.addrInternal(it.from, ROLE_FROM, pos), EMPTY);
    const receiver = it.to ?? it.created;
    if (receiver) write(w, put, 'idxAddrInternal', keys.addrInternal(receiver, ROLE_TO, pos), EMPTY);
  }
}

function withdrawalEntries(w: BatchWriter, put: boolean, B: bigint, rows: BlockRows): void {
  for (const wd of rows.withdrawals) {
    write(w, put, 'idxWithdrawal', keys.withdrawal(wd.index, B), put ? encodeWithdrawal({ ...wd, block: B }) : EMPTY);
  }
}
