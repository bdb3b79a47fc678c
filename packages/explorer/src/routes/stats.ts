import type { Explorer } from '../Explorer.js';
import { dayOf } from '@ashlar/core';
import { dec, ether, gwei, isoTime, percent } from '../serializers/format.js';
import type { RouteContext } from './context.js';

/** Blocks /stats averages block time and utilisation over. */
const RECENT_BLOCKS = 100n;
const CHART_DAYS = 30;
const GWEI = 1_000_000_000n;

async function recent(ex: Explorer) {
  const head = ex.head;
  const from = head.number > RECENT_BLOCKS ? head.number - RECENT_BLOCKS : 0n;
  const first = (await ex.block(from)) ?? head;
  const span = head.number - first.number;
  const ms =
    span === 0n ? 0 : (Number(head.block.header.timestamp - first.block.header.timestamp) * 1000) / Number(span);
  let used = 0n;
  let limit = 0n;
  for (let n = head.number; n > head.number - 10n && n >= 0n; n--) {
    const sb = await ex.block(n);
    if (!sb) continue;
    used += sb.block.header.gasUsed;
    limit += sb.block.header.gasLimit;
  }
  return { averageBlockTimeMs: ms, utilisation: percent(used, limit) };
}

/** /stats and its charts (Blockscout's StatsController). A dev chain has no market: prices are null. */
export function statsRoutes({ ex, r }: RouteContext): void {
  r.get('/stats', async () => {
    const totals = await ex.q.totals();
    const head = ex.head;
    const today = dayOf(head.block.header.timestamp);
    const daily = (await ex.q.daily(today, today)).get(today);
    const { averageBlockTimeMs, utilisation } = await recent(ex);
    const baseFee = ex.services.miner.nextBlockBaseFee() ?? 0n;
    return {
      total_blocks: dec(head.number + 1n),
      total_addresses: dec(totals.addressCount),
      total_transactions: dec(totals.txCount),
      total_gas_used: dec(totals.gasUsed),
      transactions_today: dec(daily?.txCount ?? 0n),
      gas_used_today: dec(daily?.gasUsed ?? 0n),
      average_block_time: averageBlockTimeMs,
      network_utilization_percentage: utilisation,
      gas_prices: { slow: gwei(baseFee), average: gwei(baseFee + GWEI), fast: gwei(baseFee + 2n * GWEI) },
      gas_price_updated_at: isoTime(head.block.header.timestamp),
      gas_prices_update_in: 0,
      static_gas_price: null,
      coin_price: null,
      coin_price_change_percentage: null,
      coin_image: null,
      secondary_coin_price: null,
      secondary_coin_image: null,
      market_cap: '0',
      tvl: null,
    };
  });

  // Spec §4.2: newest date first; the spec's `tx_count` and Blockscout 10's `transactions_count`, one value.
  r.get('/stats/charts/transactions', async () => {
    const last = dayOf(ex.head.block.header.timestamp);
    const first = Math.max(0, last - CHART_DAYS + 1);
    const days = await ex.q.daily(first, last);
    const chart_data = [];
    for (let d = last; d >= first; d--) {
      const count = Number(days.get(d)?.txCount ?? 0n);
      chart_data.push({
        date: new Date(d * 86_400_000).toISOString().slice(0, 10),
        tx_count: count,
        transactions_count: count,
      });
    }
    return { chart_data };
  });

  r.get('/stats/charts/market', async () => {
    const totals = await ex.q.totals();
    return { available_supply: ether(totals.coinSupply), chart_data: [] };
  });
}
