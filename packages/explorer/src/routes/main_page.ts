import type { RouteContext } from './context.js';
import { renderBlocks } from './context.js';
import { latestBlocks } from './blocks.js';
import { renderTxs } from './transactions.js';

const MAIN_PAGE_BLOCKS = 4;
const MAIN_PAGE_TXS = 6;

/** The home page's summaries (Blockscout's MainPageController): plain arrays, not pages. */
export function mainPageRoutes({ ex, r }: RouteContext): void {
  r.get('/main-page/blocks', async () => renderBlocks(ex, await latestBlocks(ex, undefined, MAIN_PAGE_BLOCKS)));

  r.get('/main-page/transactions', async () => {
    const positions = await ex.q.txs({ kind: 'all' }, undefined, MAIN_PAGE_TXS);
    return renderTxs(ex, await ex.txsAt(positions));
  });

  // The index is written with each block, so it is never behind while the node serves.
  r.get('/main-page/indexing-status', async () => {
    const healthy = ex.index.healthy;
    return {
      finished_indexing: healthy,
      finished_indexing_blocks: healthy,
      indexed_blocks_ratio: healthy ? 1 : 0,
      // Internal transactions are indexed with their block when call frames are kept (chain option).
      indexed_internal_transactions_ratio: ex.services.options.chain.callFrames ? (healthy ? 1 : 0) : null,
    };
  });
}
