import { bigIntCursor } from '../pagination/cursors.js';
import { PAGE_SIZE, pageOf } from '../pagination/page.js';
import { withdrawalJson } from '../serializers/withdrawal.js';
import type { RouteContext } from './context.js';

/** /withdrawals, newest (highest index) first (Blockscout's WithdrawalController). */
export function withdrawalRoutes({ ex, r }: RouteContext): void {
  r.get('/withdrawals', async (req) => {
    const rows = await ex.q.withdrawals(bigIntCursor(req.query, 'index'), PAGE_SIZE + 1);
    return pageOf(
      rows,
      async (shown) => {
        const facts = await ex.facts(
          [],
          shown.map((w) => w.address),
        );
        const out = [];
        for (const w of shown) {
          const sb = await ex.block(w.block);
          out.push(withdrawalJson(w, facts, { timestamp: sb?.block.header.timestamp ?? 0n }));
        }
        return out;
      },
      (last) => ({ index: Number(last.index), items_count: PAGE_SIZE }),
    );
  });
}
