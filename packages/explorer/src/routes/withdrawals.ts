import type { WithdrawalRecord } from '@ashlar/core';
import { bytesToHex } from '@ethereumjs/util';
import type { Explorer } from '../Explorer.js';
import { bigIntCursor } from '../pagination/cursors.js';
import { PAGE_SIZE, pageOf } from '../pagination/page.js';
import { withdrawalJson } from '../serializers/withdrawal.js';
import type { RouteContext } from './context.js';
import { addressParam } from './addresses.js';

/** /withdrawals/counters reads at most this many withdrawals (newest first). */
export const COUNTER_SCAN_LIMIT = 100_000;
/** An address's list reads at most this many of the chain's withdrawals per page. */
const ADDRESS_SCAN_LIMIT = 5_000;
const GWEI = 1_000_000_000n;

async function render(ex: Explorer, shown: WithdrawalRecord[]) {
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
}

const params = (last: WithdrawalRecord) => ({ index: Number(last.index), items_count: PAGE_SIZE });

/** /withdrawals, newest (highest index) first, its counters and an address's (Blockscout's WithdrawalController). */
export function withdrawalRoutes({ ex, r }: RouteContext): void {
  r.get('/withdrawals', async (req) => {
    const rows = await ex.q.withdrawals(bigIntCursor(req.query, 'index'), PAGE_SIZE + 1);
    return pageOf(rows, (shown) => render(ex, shown), params);
  });

  r.get('/withdrawals/counters', async () => {
    const rows = await ex.q.withdrawals(undefined, COUNTER_SCAN_LIMIT);
    const sum = rows.reduce((n, w) => n + w.amountGwei * GWEI, 0n);
    return { withdrawals_count: String(rows.length), withdrawals_sum: sum.toString() };
  });

  // The chain's list filtered by receiver, scanned at most ADDRESS_SCAN_LIMIT entries a page: when
  // the scan stops first, next_page_params continue below the last entry read.
  r.get('/addresses/:hash/withdrawals', async (req) => {
    const address = addressParam(req.params.hash);
    const rec = await ex.q.address(address);
    if (!rec || rec.withdrawalCount === 0n) return { items: [], next_page_params: null };
    const want = bytesToHex(address);
    let before = bigIntCursor(req.query, 'index');
    const kept: WithdrawalRecord[] = [];
    let scanned = 0;
    let exhausted = false;
    while (kept.length <= PAGE_SIZE && scanned < ADDRESS_SCAN_LIMIT) {
      const chunk = await ex.q.withdrawals(before, PAGE_SIZE + 1);
      scanned += chunk.length;
      for (const w of chunk) if (kept.length <= PAGE_SIZE && bytesToHex(w.address) === want) kept.push(w);
      if (chunk.length < PAGE_SIZE + 1) {
        exhausted = true;
        break;
      }
      before = chunk[chunk.length - 1].index;
    }
    if (kept.length > PAGE_SIZE || exhausted || before === undefined)
      return pageOf(kept, (shown) => render(ex, shown), params);
    return { items: await render(ex, kept), next_page_params: { index: Number(before), items_count: PAGE_SIZE } };
  });
}
