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
  const write =
    mode === 'put'
      ? (t: IndexTable, k: Uint8Array, v: Uint8Array = EMPTY) => w.put(t, k, v)
      : (t: IndexTable, k: Uint8Array) => w.del(t, k);
  const B = rows.number;
  for (const tx of rows.txs) {
    const pos = txPos(B, tx.index);
    const mask = kinds[tx.index] ?? 0;
    write('idxTx', pos, u8(mask));
    for (let bit = 0; bit < TX_KINDS.length; bit++) if (mask & (1 << bit)) write('idxTxKind', keys.txKind(bit, pos));
    if (tx.selector) write('idxTxMethod', keys.txMethod(tx.selector, pos));
    write('idxAddrTx', keys.addrTx(tx.from, ROLE_FROM, pos));
    const receiver = tx.to ?? tx.created;
    if (receiver) write('idxAddrTx', keys.addrTx(receiver, ROLE_TO, pos));
  }
  for (const it of rows.internals) {
    const pos = internalPos(B, it.txIndex, it.index);
    write('idxInternal', pos);
    write('idxAddrInternal', keys.addrInternal(it.from, ROLE_FROM, pos));
    const receiver = it.to ?? it.created;
    if (receiver) write('idxAddrInternal', keys.addrInternal(receiver, ROLE_TO, pos));
  }
  for (const log of rows.logs)
    write('idxAddrLog', keys.addrLog(log.address, logPos(B, log.logIndex)), u32(log.txIndex));
  for (const t of rows.transfers) {
    const pos = transferPos(B, t.logIndex, t.sub);
    const type = tokenTypeByte(transferTokenType(t.kind));
    write('idxTransfer', pos, mode === 'put' ? encodeTransfer(t) : EMPTY);
    write('idxTokenTransfer', keys.tokenTransfer(t.token, pos));
    write('idxAddrTransfer', keys.addrTransfer(t.from, type, ROLE_FROM, pos));
    write('idxAddrTransfer', keys.addrTransfer(t.to, type, ROLE_TO, pos));
    write('idxAddrTokenTransfer', keys.addrTokenTransfer(t.from, t.token, ROLE_FROM, pos));
    write('idxAddrTokenTransfer', keys.addrTokenTransfer(t.to, t.token, ROLE_TO, pos));
  }
  for (const wd of rows.withdrawals) {
    write(
      'idxWithdrawal',
      keys.withdrawal(wd.index, B),
      mode === 'put' ? encodeWithdrawal({ ...wd, block: B }) : EMPTY,
    );
  }
  write('idxValidated', keys.validated(rows.coinbase, B));
}
