import { formatInt } from '../format.js';
import { useApi } from '../hooks.js';
import { BlockRows, TxRows } from '../lists.js';
import type { Block, Stats, Tx } from '../types.js';
import { Failure, Loading } from '../ui.js';

interface ChartPoint {
  date: string;
  transaction_count?: number | string | null;
  transactions_count?: number | string | null;
}

/** Daily transactions as an SVG bar chart (no chart library: a few bars need none). */
function TxChart() {
  const { data } = useApi<{ chart_data: ChartPoint[] }>('/api/v2/stats/charts/transactions');
  const points = (data?.chart_data ?? []).slice(-30);
  if (points.length === 0) return null;
  const counts = points.map((p) => Number(p.transaction_count ?? p.transactions_count ?? 0));
  const max = Math.max(1, ...counts);
  const w = 300;
  const h = 60;
  const bw = w / points.length;
  const summary = points.map((p, i) => `${p.date}: ${counts[i]}`).join(', ');
  return (
    <figure class="card chart">
      <figcaption>Transactions per day</figcaption>
      <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`Transactions per day: ${summary}`}>
        {counts.map((c, i) => (
          <rect
            key={points[i]!.date}
            x={i * bw + 1}
            y={h - (c / max) * h}
            width={Math.max(1, bw - 2)}
            height={(c / max) * h}
          />
        ))}
      </svg>
    </figure>
  );
}

export function Home() {
  const stats = useApi<Stats>('/api/v2/stats', 1000);
  const blocks = useApi<Block[]>('/api/v2/main-page/blocks', 1000);
  const txs = useApi<Tx[]>('/api/v2/main-page/transactions', 1000);
  const s = stats.data;
  return (
    <>
      <h1>Ashlar explorer</h1>
      <section aria-labelledby="stats-h" class="stats">
        <h2 id="stats-h" class="sr-only">
          Chain statistics
        </h2>
        <div class="card">
          <div class="muted">Blocks</div>
          <div class="big" data-stat="blocks">
            {s ? formatInt(s.total_blocks) : '…'}
          </div>
        </div>
        <div class="card">
          <div class="muted">Transactions</div>
          <div class="big" data-stat="transactions">
            {s ? formatInt(s.total_transactions) : '…'}
          </div>
        </div>
        <div class="card">
          <div class="muted">Addresses</div>
          <div class="big">{s ? formatInt(s.total_addresses) : '…'}</div>
        </div>
        <div class="card">
          <div class="muted">Gas price</div>
          <div class="big">{s?.gas_prices ? `${s.gas_prices.average} Gwei` : '—'}</div>
        </div>
        <TxChart />
      </section>
      <div class="columns">
        <section aria-labelledby="latest-blocks-h">
          <h2 id="latest-blocks-h">
            Latest blocks{' '}
            <a class="view-all" href="/blocks">
              View all
            </a>
          </h2>
          {blocks.error ? (
            <Failure error={blocks.error} />
          ) : blocks.data ? (
            <BlockRows blocks={blocks.data.slice(0, 6)} caption="Latest blocks" />
          ) : (
            <Loading />
          )}
        </section>
        <section aria-labelledby="latest-txs-h">
          <h2 id="latest-txs-h">
            Latest transactions{' '}
            <a class="view-all" href="/txs">
              View all
            </a>
          </h2>
          {txs.error ? (
            <Failure error={txs.error} />
          ) : txs.data ? (
            txs.data.length === 0 ? (
              <p class="muted">No transactions yet.</p>
            ) : (
              <TxRows txs={txs.data.slice(0, 6)} caption="Latest transactions" compact />
            )
          ) : (
            <Loading />
          )}
        </section>
      </div>
    </>
  );
}
