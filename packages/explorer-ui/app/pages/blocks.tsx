import { formatEth, formatInt, formatUnits } from '../format.js';
import { useApi } from '../hooks.js';
import { BlockRows, TxRows } from '../lists.js';
import type { Block, Tx } from '../types.js';
import { AddressLink, Details, Hash, Loading, Paged, Time } from '../ui.js';
import { NotFound } from './notFound.js';

export function Blocks() {
  return (
    <>
      <h1>Blocks</h1>
      <Paged<Block>
        path="/api/v2/blocks?type=block"
        live
        empty="No blocks."
        render={(items) => <BlockRows blocks={items} caption="Blocks" />}
      />
    </>
  );
}

export function BlockPage({ id }: { id: string }) {
  const { data: b, error } = useApi<Block>(`/api/v2/blocks/${encodeURIComponent(id)}`);
  if (error) return <NotFound what={`Block ${id}`} error={error} />;
  if (!b) return <Loading />;
  return (
    <>
      <h1>
        Block <span data-field="number">{b.height}</span>
      </h1>
      <section aria-label="Block details" class="card">
        <Details
          rows={[
            ['Block height', <span key="n">{b.height}</span>],
            ['Hash', <Hash key="h" hash={b.hash} label="block hash" />],
            [
              'Parent hash',
              <Hash
                key="p"
                hash={b.parent_hash}
                label="parent hash"
                href={b.height > 0 ? `/block/${b.height - 1}` : undefined}
              />,
            ],
            [
              'Timestamp',
              <span key="t">
                <Time iso={b.timestamp} /> <span class="muted">({new Date(b.timestamp).toUTCString()})</span>
              </span>,
            ],
            ['Transactions', <span key="c">{b.transactions_count}</span>],
            ['Fee recipient', <AddressLink key="m" a={b.miner} short={false} />],
            [
              'Gas used',
              <span key="g" data-field="gas-used">
                {formatInt(b.gas_used)} / {formatInt(b.gas_limit)} ({b.gas_used_percentage}%)
              </span>,
            ],
            [
              'Base fee',
              <span key="bf">{b.base_fee_per_gas === null ? '—' : `${formatUnits(b.base_fee_per_gas, 9)} Gwei`}</span>,
            ],
            ['Burnt fees', <span key="bu">{formatEth(b.burnt_fees)}</span>],
            ['Size', <span key="s">{formatInt(b.size)} bytes</span>],
          ]}
        />
      </section>
      <section aria-labelledby="block-txs-h">
        <h2 id="block-txs-h">Transactions</h2>
        <Paged<Tx>
          path={`/api/v2/blocks/${b.height}/transactions`}
          empty="This block has no transactions."
          render={(items) => <TxRows txs={items} caption="Transactions of the block" />}
        />
      </section>
    </>
  );
}
