import { formatInt, formatUnits } from '../format.js';
import { useApi } from '../hooks.js';
import { TransferRows } from '../lists.js';
import type { AddressRef, TokenInfo, TokenTransfer } from '../types.js';
import { AddressLink, Details, Hash, Loading, Paged, Table, Tabs } from '../ui.js';
import { NotFound } from './notFound.js';

const supply = (t: TokenInfo) =>
  t.total_supply === null
    ? '—'
    : t.type === 'ERC-20'
      ? `${formatUnits(t.total_supply, Number(t.decimals ?? 0))} ${t.symbol ?? ''}`
      : formatInt(t.total_supply);

export function Tokens() {
  return (
    <>
      <h1>Tokens</h1>
      <Paged<TokenInfo>
        path="/api/v2/tokens"
        empty="No tokens yet."
        render={(items) => (
          <Table caption="Tokens" head={['Token', 'Type', 'Address', 'Holders', 'Total supply']}>
            {items.map((t) => (
              <tr key={t.address_hash}>
                <td>
                  <a href={`/token/${t.address_hash}`}>
                    {t.name ?? 'Unnamed'} {t.symbol ? `(${t.symbol})` : ''}
                  </a>
                </td>
                <td>{t.type}</td>
                <td>
                  <AddressLink a={t.address_hash} />
                </td>
                <td>{formatInt(t.holders_count)}</td>
                <td>{supply(t)}</td>
              </tr>
            ))}
          </Table>
        )}
      />
    </>
  );
}

interface Holder {
  address: AddressRef;
  token_id: string | null;
  value: string;
}

export function TokenPage({ hash, tab }: { hash: string; tab: string }) {
  const { data: t, error } = useApi<TokenInfo>(`/api/v2/tokens/${encodeURIComponent(hash)}`, 2000);
  if (error) return <NotFound what={`Token ${hash}`} error={error} />;
  if (!t) return <Loading />;
  const current = tab || 'token_transfers';
  return (
    <>
      <h1>
        {t.name ?? 'Token'} {t.symbol ? <span class="muted">({t.symbol})</span> : null}
      </h1>
      <section aria-label="Token details" class="card">
        <Details
          rows={[
            [
              'Contract',
              <Hash key="h" hash={t.address_hash} href={`/address/${t.address_hash}`} label="token address" />,
            ],
            ['Type', <span key="t">{t.type}</span>],
            ['Decimals', <span key="d">{t.decimals ?? '—'}</span>],
            [
              'Total supply',
              <span key="s" data-field="supply">
                {supply(t)}
              </span>,
            ],
            [
              'Holders',
              <span key="ho" data-field="holders">
                {formatInt(t.holders_count)}
              </span>,
            ],
          ]}
        />
      </section>
      <Tabs
        base={`/token/${t.address_hash}`}
        current={current}
        tabs={[
          ['token_transfers', 'Transfers'],
          ['holders', 'Holders'],
        ]}
      />
      <section aria-label={current === 'holders' ? 'Holders' : 'Transfers'}>
        {current === 'holders' ? (
          <Paged<Holder>
            path={`/api/v2/tokens/${t.address_hash}/holders`}
            empty="No holders."
            render={(items) => (
              <Table caption="Holders" head={['Holder', 'Balance']}>
                {items.map((h) => (
                  <tr key={`${h.address.hash}:${h.token_id ?? ''}`}>
                    <td>
                      <AddressLink a={h.address} short={false} />
                    </td>
                    <td>
                      {t.type === 'ERC-20'
                        ? `${formatUnits(h.value, Number(t.decimals ?? 0))} ${t.symbol ?? ''}`
                        : `${h.value}${h.token_id ? ` × #${h.token_id}` : ''}`}
                    </td>
                  </tr>
                ))}
              </Table>
            )}
          />
        ) : (
          <Paged<TokenTransfer>
            path={`/api/v2/tokens/${t.address_hash}/transfers`}
            live
            empty="No transfers."
            render={(items) => <TransferRows transfers={items} caption="Token transfers" />}
          />
        )}
      </section>
    </>
  );
}
