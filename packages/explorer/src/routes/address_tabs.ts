import { dayOf } from '@ashlar/core';
import { dec } from '../serializers/format.js';
import { firstBlockAtOrAfter } from '../time/blockAtTime.js';
import type { RouteContext } from './context.js';
import { addressParam } from './addresses.js';

/** Blockscout counts an address's tab items up to 51: its frontend shows "50+" from there. */
const TAB_COUNT_CAP = 51;
/** Blockscout's default window of /coin-balance-history-by-day (COIN_BALANCE_HISTORY_DAYS). */
const BALANCE_DAYS = 10;
const DAY = 86_400n;

const capped = (n: bigint): number => Number(n > BigInt(TAB_COUNT_CAP) ? BigInt(TAB_COUNT_CAP) : n);

/** The counters on an address page's tabs, and its balance chart (Blockscout's AddressController). */
export function addressTabRoutes({ ex, r }: RouteContext): void {
  r.get('/addresses/:hash/tabs-counters', async (req) => {
    const address = addressParam(req.params.hash);
    const [rec, internals, holdings] = await Promise.all([
      ex.q.address(address),
      ex.q.internals({ kind: 'address', address, roles: ['from', 'to'] }, undefined, TAB_COUNT_CAP),
      ex.q.balancesOf(address, 10_000),
    ]);
    return {
      transactions_count: capped(rec?.txCount ?? 0n),
      token_transfers_count: capped(rec?.transferCount ?? 0n),
      token_balances_count: capped(BigInt(holdings.filter((h) => h.balance > 0n).length)),
      logs_count: capped(rec?.logCount ?? 0n),
      withdrawals_count: capped(rec?.withdrawalCount ?? 0n),
      internal_transactions_count: internals.length,
      validations_count: capped(rec?.validations ?? 0n),
    };
  });

  // The balance at the end of each of the last 10 days (the head's day last), oldest first; days
  // are UTC days of block time, as /stats counts "today".
  r.get('/addresses/:hash/coin-balance-history-by-day', async (req) => {
    const address = addressParam(req.params.hash);
    const today = BigInt(dayOf(ex.head.block.header.timestamp));
    const items = [];
    for (let d = today - BigInt(BALANCE_DAYS) + 1n; d <= today; d++) {
      if (d < 0n) continue;
      // The last block of day d is the one before the first block of day d + 1.
      const end = await firstBlockAtOrAfter(ex, (d + 1n) * DAY);
      const [last] = end === 0n ? [] : await ex.q.coinHistory(address, end, 1);
      items.push({
        date: new Date(Number(d * DAY) * 1000).toISOString().slice(0, 10),
        value: dec(last?.value ?? 0n),
      });
    }
    return { days: BALANCE_DAYS, items };
  });
}
