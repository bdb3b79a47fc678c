import type { IndexQueries, InternalPosition, KernelServices, StoredBlock, TxPosition } from '@ashlar/core';
import type { Address } from '@ethereumjs/util';
import { receiptWithTimestamp, transactionAt } from './txWithReceipt.js';

const CHUNK = 256;

/** Lists an address's transactions below a cursor (all when undefined), newest first. */
type TxList = (after: TxPosition | undefined, limit: number) => Promise<TxPosition[]>;

const newestFirst = (a: TxPosition, b: TxPosition): number =>
  a.block === b.block ? b.index - a.index : a.block > b.block ? -1 : 1;

/**
 * The transactions that reached `a`, as Erigon's call-trace index finds them: those it sent or
 * received, and those in which one of its call frames came from or went to it (an internal
 * transfer, a call from a contract, a contract it created), each once, newest first. Both come
 * from the explorer index (its transaction and internal-transaction lists by address).
 */
function addressTxs(q: IndexQueries, a: Address): TxList {
  const roles = ['from', 'to'] as const;
  return async (after, limit) => {
    const direct = await q.txs({ kind: 'address', address: a.bytes, roles }, after, limit);
    // Internal frames below the cursor's transaction: position (block, tx, 0) excludes it and all after.
    const reached = new Map<string, TxPosition>();
    let cursor: InternalPosition | undefined = after
      ? { block: after.block, txIndex: after.index, index: 0 }
      : undefined;
    for (;;) {
      const chunk = await q.internals({ kind: 'address', address: a.bytes, roles }, cursor, CHUNK);
      for (const p of chunk) reached.set(`${p.block}:${p.txIndex}`, { block: p.block, index: p.txIndex });
      if (chunk.length < CHUNK || reached.size >= limit) break;
      cursor = chunk[chunk.length - 1];
    }
    const all = new Map<string, TxPosition>(reached);
    for (const p of direct) all.set(`${p.block}:${p.index}`, p);
    return [...all.values()].sort(newestFirst).slice(0, limit);
  };
}

/**
 * Otterscan's page rule: at least `pageSize` transactions (fewer only at the end of the
 * history), and never half a block: once the page is full, the rest of its last block joins it.
 */
async function completeBlock(list: TxList, items: TxPosition[]): Promise<void> {
  const last = items[items.length - 1];
  if (!last) return;
  for (;;) {
    const more = await list(items[items.length - 1], CHUNK);
    const same = more.filter((p) => p.block === last.block);
    items.push(...same);
    if (same.length < more.length || more.length < CHUNK) return;
  }
}

/** Positions of the transactions that reached `a` in blocks below `before` (all when undefined), newest first. */
export async function historyBefore(q: IndexQueries, a: Address, before: bigint | undefined, pageSize: number) {
  const list = addressTxs(q, a);
  const items = await list(before === undefined ? undefined : { block: before, index: 0 }, pageSize);
  if (items.length === pageSize) await completeBlock(list, items);
  const last = items[items.length - 1];
  const more = last ? (await list(last, 1)).length > 0 : false;
  return { items, more };
}

/**
 * Positions of `a`'s transactions in blocks above `after`, newest first: the oldest `pageSize`
 * of them (their last block completed). The index lists newest first only, so this walks down
 * from the head to `after`.
 */
export async function historyAfter(q: IndexQueries, a: Address, after: bigint, pageSize: number) {
  const list = addressTxs(q, a);
  const all: TxPosition[] = [];
  for (let cursor: TxPosition | undefined; ; ) {
    const chunk = await list(cursor, CHUNK);
    const newer = chunk.filter((p) => p.block > after);
    all.push(...newer);
    if (newer.length < chunk.length || chunk.length < CHUNK) break;
    cursor = chunk[chunk.length - 1];
  }
  const ascending = all.reverse();
  let n = Math.min(pageSize, ascending.length);
  if (n > 0) while (n < ascending.length && ascending[n].block === ascending[n - 1].block) n++;
  return { items: ascending.slice(0, n).reverse(), more: n < ascending.length };
}

/** The transactions and receipts (with timestamps) at the positions. */
export async function txsWithReceipts(services: KernelServices, positions: TxPosition[]) {
  const blocks = new Map<bigint, StoredBlock>();
  const txs = [];
  const receipts = [];
  for (const p of positions) {
    let sb = blocks.get(p.block);
    if (!sb) {
      sb = await services.chain.getBlock(p.block);
      if (!sb) continue;
      blocks.set(p.block, sb);
    }
    txs.push(transactionAt(sb, p.index));
    receipts.push(receiptWithTimestamp(sb, p.index));
  }
  return { txs, receipts };
}
