import type { TxKind, TxPosition, TxSource } from '@ashlar/core';
import type { Explorer, MinedTx } from '../Explorer.js';
import { invalidParam, notFound } from '../http/errors.js';
import { parseEnum, parseHash } from '../http/params.js';
import { parseTokenTypes } from '../http/tokenTypes.js';
import { indexCursor, present, txCursor } from '../pagination/cursors.js';
import { PAGE_SIZE, type Page, type PageParams, pageOf } from '../pagination/page.js';
import { hex } from '../serializers/format.js';
import { type LogView, logJson } from '../serializers/log.js';
import { selectorsFor } from '../serializers/methods.js';
import { tokenTransferJson } from '../serializers/tokenTransfer.js';
import { transfersOf, txJson } from '../serializers/transaction.js';
import type { RouteContext } from './context.js';
import { pendingPage } from './pending.js';
import { parseTxTypes } from './txFilters.js';

/** A filtered list reads at most this many entries per page, so a rare filter cannot make one request read the chain. */
const SCAN_LIMIT = 5_000;

export const txPageParams = (t: MinedTx): PageParams => ({
  block_number: Number(t.sb.number),
  index: t.index,
  items_count: PAGE_SIZE,
});

/** Renders mined transactions with their facts loaded in bulk. */
export async function renderTxs(ex: Explorer, txs: MinedTx[]) {
  const facts = await ex.facts(txs);
  return txs.map((t) => txJson(t, facts));
}

/**
 * A page of transactions from an index list, optionally keeping only some kinds. With a kind
 * filter on top of the list (e.g. `method` and `type` together) the scan is bounded: when it
 * stops early, `next_page_params` continue from the last entry read, so paging still visits
 * every match once.
 */
export async function txListPage(
  ex: Explorer,
  source: TxSource,
  after: TxPosition | undefined,
  keep?: readonly TxKind[],
): Promise<Page<unknown>> {
  if (!keep) {
    const rows = await ex.txsAt(await ex.q.txs(source, after, PAGE_SIZE + 1));
    return pageOf(rows, (shown) => renderTxs(ex, shown), txPageParams);
  }
  const matches: TxPosition[] = [];
  let cursor = after;
  let scanned = 0;
  while (matches.length <= PAGE_SIZE && scanned < SCAN_LIMIT) {
    const chunk = await ex.q.txs(source, cursor, PAGE_SIZE + 1);
    const kinds = await ex.q.txKinds(chunk);
    chunk.forEach((p, i) => {
      if (matches.length <= PAGE_SIZE && kinds[i].some((k) => keep.includes(k))) matches.push(p);
    });
    scanned += chunk.length;
    if (chunk.length < PAGE_SIZE + 1) {
      cursor = undefined;
      break;
    }
    cursor = chunk[chunk.length - 1];
  }
  const rows = await ex.txsAt(matches);
  if (rows.length > PAGE_SIZE || !cursor) return pageOf(rows, (shown) => renderTxs(ex, shown), txPageParams);
  // Stopped by the scan limit: resume below the last entry read.
  return {
    items: await renderTxs(ex, rows),
    next_page_params: { block_number: Number(cursor.block), index: cursor.index, items_count: PAGE_SIZE },
  };
}

async function minedParam(ex: Explorer, raw: string): Promise<MinedTx | undefined> {
  const t = await ex.txByHash(parseHash(raw, 'transaction_hash_param'));
  if (!t) throw notFound();
  return t.kind === 'mined' ? t : undefined;
}

/** /transactions and one transaction's views (Blockscout's TransactionController). */
export function transactionRoutes({ ex, r }: RouteContext): void {
  r.get('/transactions', async (req) => {
    const q = req.query;
    const filter = parseEnum(q.get('filter'), 'filter', ['pending', 'validated'] as const) ?? 'validated';
    const types = parseTxTypes(q.get('type'));
    const method = present(q, 'method');
    const selectors = method === undefined ? undefined : selectorsFor(method);
    if (method !== undefined && !selectors)
      throw invalidParam('method', `Unknown method ${JSON.stringify(method)}: use a known name or a 0x selector`);
    if (filter === 'pending') return pendingPage(ex, q, types, selectors);
    const after = txCursor(q);
    if (selectors) return txListPage(ex, { kind: 'method', selectors }, after, types);
    return txListPage(ex, types ? { kind: 'kinds', kinds: types } : { kind: 'all' }, after);
  });

  r.get('/transactions/:hash', async (req) => {
    const t = await ex.txByHash(parseHash(req.params.hash, 'transaction_hash_param'));
    if (!t) throw notFound();
    return txJson(t, await ex.facts([t]));
  });

  // Inside one transaction, as Blockscout's API: in log order, paged by the spec's batch keys.
  r.get('/transactions/:hash/token-transfers', async (req) => {
    const t = await minedParam(ex, req.params.hash);
    const types = parseTokenTypes(req.query.get('type'));
    const afterLog = indexCursor(req.query, 'batch_log_index');
    const afterSub = indexCursor(req.query, 'index_in_batch') ?? 0;
    if (!t) return { items: [], next_page_params: null };
    const facts = await ex.facts([t]);
    const rows = transfersOf(t).filter(
      (v) =>
        (afterLog === undefined || v.logIndex > afterLog || (v.logIndex === afterLog && v.sub > afterSub)) &&
        (!types || types.includes(facts.tokens.get(hex(v.token))?.type ?? 'ERC-20')),
    );
    return pageOf(
      rows.slice(0, PAGE_SIZE + 1),
      (shown) => shown.map((v) => tokenTransferJson(v, facts)),
      (last) => ({
        batch_log_index: last.logIndex,
        batch_block_hash: hex(last.blockHash),
        batch_transaction_hash: hex(last.txHash),
        index_in_batch: last.sub,
      }),
    );
  });

  r.get('/transactions/:hash/logs', async (req) => {
    const t = await minedParam(ex, req.params.hash);
    const after = indexCursor(req.query);
    if (!t) return { items: [], next_page_params: null };
    const views: LogView[] = t.receipt.logs.map((log, k) => ({
      log,
      logIndex: t.logBase + k,
      block: t.sb.number,
      blockHash: t.sb.hash,
      timestamp: t.sb.block.header.timestamp,
      txHash: t.tx.hash(),
    }));
    const rows = views.filter((v) => after === undefined || v.logIndex > after);
    const facts = await ex.facts(
      [],
      rows.map((v) => v.log[0]),
    );
    return pageOf(
      rows.slice(0, PAGE_SIZE + 1),
      (shown) => shown.map((v) => logJson(v, facts)),
      (last) => ({ index: last.logIndex, items_count: PAGE_SIZE, block_number: Number(last.block) }),
    );
  });
}
