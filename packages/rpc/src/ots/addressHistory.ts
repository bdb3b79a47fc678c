import type { IndexQueries, Kernel, StoredBlock, TxPosition } from '@ashlar/core';
import type { Address } from '@ethereumjs/util';
import { receiptWithTimestamp, transactionAt } from './txWithReceipt.js';

type Source = Parameters<IndexQueries['txs']>[0];

const source = (a: Address): Source => ({ kind: 'address', address: a.bytes, roles: ['from', 'to'] });
const CHUNK = 256;

/**
 * Otterscan's page rule: at least `pageSize` transactions (fewer only at the end of the
 * history), and never half a block: once the page is full, the rest of its last block joins it.
 */
async function completeBlock(q: IndexQueries, src: Source, items: TxPosition[]): Promise<void> {
  const last = items[items.length - 1];
  if (!last) return;
  for (;;) {
    const more = await q.txs(src, items[items.length - 1], CHUNK);
    const same = more.filter((p) => p.block === last.block);
    items.push(...same);
    if (same.length < more.length || more.length < CHUNK) return;
  }
}

/** Positions of `a`'s transactions in blocks below `before` (all when undefined), newest first. */
export async function historyBefore(q: IndexQueries, a: Address, before: bigint | undefined, pageSize: number) {
  const src = source(a);
  const items = await q.txs(src, before === undefined ? undefined : { block: before, index: 0 }, pageSize);
  if (items.length === pageSize) await completeBlock(q, src, items);
  const last = items[items.length - 1];
  const more = last ? (await q.txs(src, last, 1)).length > 0 : false;
  return { items, more };
}

/**
 * Positions of `a`'s transactions in blocks above `after`, newest first: the oldest `pageSize`
 * of them (their last block completed). The index lists newest first only, so this walks down
 * from the head to `after`.
 */
export async function historyAfter(q: IndexQueries, a: Address, after: bigint, pageSize: number) {
  const src = source(a);
  const all: TxPosition[] = [];
  for (let cursor: TxPosition | undefined; ; ) {
    const chunk = await q.txs(src, cursor, CHUNK);
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
export async function txsWithReceipts(kernel: Kernel, positions: TxPosition[]) {
  const blocks = new Map<bigint, StoredBlock>();
  const txs = [];
  const receipts = [];
  for (const p of positions) {
    let sb = blocks.get(p.block);
    if (!sb) {
      sb = await kernel.chain.getBlock(p.block);
      if (!sb) continue;
      blocks.set(p.block, sb);
    }
    txs.push(transactionAt(sb, p.index));
    receipts.push(receiptWithTimestamp(sb, p.index));
  }
  return { txs, receipts };
}
