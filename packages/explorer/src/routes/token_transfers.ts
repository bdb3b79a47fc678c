import type { TokenType, TransferKind, TransferPosition, TransferRecord } from '@ashlar/core';
import { parseTokenTypes } from '../http/tokenTypes.js';
import { transferCursor } from '../pagination/cursors.js';
import { PAGE_SIZE, type Page, pageOf } from '../pagination/page.js';
import type { RouteContext } from './context.js';
import { renderTransfers, transferPageParams, transferViews } from './transferPages.js';

/** A `type` filter reads at most this many of the chain's transfers per page. */
const SCAN_LIMIT = 5_000;

const typeOf = (kind: TransferKind): TokenType =>
  kind === 'erc20' ? 'ERC-20' : kind === 'erc721' ? 'ERC-721' : 'ERC-1155';

/** /token-transfers: every token transfer of the chain, newest first (Blockscout's TokenTransferController). */
export function tokenTransferRoutes({ ex, r }: RouteContext): void {
  r.get('/token-transfers', async (req): Promise<Page<unknown>> => {
    const types = parseTokenTypes(req.query.get('type'));
    if (types?.length === 0) return { items: [], next_page_params: null };
    let cursor: TransferPosition | undefined = transferCursor(req.query);
    const kept: TransferRecord[] = [];
    let scanned = 0;
    let exhausted = false;
    // Unfiltered, one read fills the page; a type filter reads on, up to SCAN_LIMIT transfers.
    while (kept.length <= PAGE_SIZE && scanned < SCAN_LIMIT) {
      const chunk = await ex.q.transfers({ kind: 'all' }, cursor, PAGE_SIZE + 1);
      scanned += chunk.length;
      for (const t of chunk) if (kept.length <= PAGE_SIZE && (!types || types.includes(typeOf(t.kind)))) kept.push(t);
      if (chunk.length < PAGE_SIZE + 1) {
        exhausted = true;
        break;
      }
      const last = chunk[chunk.length - 1];
      cursor = { block: last.block, logIndex: last.logIndex, sub: last.sub };
    }
    const views = await transferViews(ex, kept);
    if (kept.length > PAGE_SIZE || exhausted || !cursor)
      return pageOf(views, (shown) => renderTransfers(ex, shown), transferPageParams);
    // Stopped by the scan limit: the next page resumes below the last transfer read.
    return {
      items: await renderTransfers(ex, views),
      next_page_params: {
        block_number: Number(cursor.block),
        index: cursor.logIndex,
        ...(cursor.sub > 0 ? { index_in_batch: cursor.sub } : {}),
      },
    };
  });
}
