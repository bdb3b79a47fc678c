import type { StoredBlock } from '@ashlar/core';
import { parseEnum } from '../http/params.js';
import { blockNumberCursor, indexCursor } from '../pagination/cursors.js';
import { PAGE_SIZE, pageOf } from '../pagination/page.js';
import { txJson } from '../serializers/transaction.js';
import { withdrawalJson } from '../serializers/withdrawal.js';
import { Explorer } from '../Explorer.js';
import { type RouteContext, blockParam, renderBlocks } from './context.js';
import { parseTxTypes } from './txFilters.js';

const BLOCK_TYPES = ['block', 'uncle', 'reorg'] as const;

/** Blocks below `before` (or from the head), newest first: read by number, O(page). */
export async function latestBlocks(ex: Explorer, before: bigint | undefined, count: number): Promise<StoredBlock[]> {
  // A page key above the head starts from the head: counting down from it would read one
  // missing block per number, holding the loop for seconds (issue #20).
  const head = ex.head.number;
  const top = before === undefined || before > head ? head : before - 1n;
  const out: StoredBlock[] = [];
  for (let n = top; n >= 0n && out.length < count; n--) {
    const sb = await ex.block(n);
    if (sb) out.push(sb);
  }
  return out;
}

/** /blocks and a block's transactions and withdrawals (Blockscout's BlockController). */
export function blockRoutes({ ex, r }: RouteContext): void {
  r.get('/blocks', async (req) => {
    const type = parseEnum(req.query.get('type'), 'type', BLOCK_TYPES) ?? 'block';
    const before = blockNumberCursor(req.query);
    // A dev chain has one miner and no forks: it never has uncles or reorged blocks.
    if (type !== 'block') return { items: [], next_page_params: null };
    const rows = await latestBlocks(ex, before, PAGE_SIZE + 1);
    return pageOf(
      rows,
      (shown) => renderBlocks(ex, shown),
      (last) => ({ block_number: Number(last.number), items_count: PAGE_SIZE }),
    );
  });

  r.get('/blocks/:id', async (req) => {
    const sb = await blockParam(ex, req.params.id);
    return (await renderBlocks(ex, [sb]))[0];
  });

  // Inside one block Blockscout's API lists transactions by position, first to last.
  r.get('/blocks/:id/transactions', async (req) => {
    const sb = await blockParam(ex, req.params.id);
    const kinds = parseTxTypes(req.query.get('type'));
    const after = indexCursor(req.query);
    const all = sb.block.transactions.map((_, i) => ex.minedAt(sb, i)).filter((t) => t !== undefined);
    const candidates = after === undefined ? all : all.filter((t) => t.index > after);
    const facts = await ex.facts(candidates);
    const rows = kinds
      ? candidates.filter((t) => (Explorer.kindsOf(facts, t) ?? []).some((k) => kinds.includes(k)))
      : candidates;
    return pageOf(
      rows.slice(0, PAGE_SIZE + 1),
      (shown) => shown.map((t) => txJson(t, facts)),
      (last) => ({ block_number: Number(last.sb.number), index: last.index, items_count: PAGE_SIZE }),
    );
  });

  r.get('/blocks/:id/withdrawals', async (req) => {
    const sb = await blockParam(ex, req.params.id);
    const before = indexCursor(req.query);
    const list = (sb.block.withdrawals ?? [])
      .map((w) => ({
        index: BigInt(w.index),
        validatorIndex: BigInt(w.validatorIndex),
        address: w.address.bytes,
        amountGwei: BigInt(w.amount),
        block: sb.number,
      }))
      .filter((w) => before === undefined || w.index < BigInt(before))
      .sort((a, b) => (a.index < b.index ? 1 : -1));
    const facts = await ex.facts(
      [],
      list.map((w) => w.address),
    );
    return pageOf(
      list.slice(0, PAGE_SIZE + 1),
      (shown) => shown.map((w) => withdrawalJson(w, facts)),
      (last) => ({ index: Number(last.index), items_count: PAGE_SIZE }),
    );
  });
}
