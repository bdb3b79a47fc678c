import { formatEth, formatGwei, formatInt, formatUnits, formatValue } from '../format.js';
import { useApi } from '../hooks.js';
import { InternalRows, TransferRows, TxRows, methodOf } from '../lists.js';
import type { AddressRef, Decoded, InternalTx, Log, Page, TokenInfo, TokenTransfer, Tx } from '../types.js';
import { AddressLink, BlockLink, Details, Hash, Loading, Paged, Status, Table, Tabs, Time } from '../ui.js';
import { NotFound } from './notFound.js';

export function Txs({ tab }: { tab: string }) {
  const pending = tab === 'pending';
  return (
    <>
      <h1>Transactions</h1>
      <Tabs
        base="/txs"
        current={pending ? 'pending' : 'validated'}
        tabs={[
          ['validated', 'Validated'],
          ['pending', 'Pending'],
        ]}
      />
      <Paged<Tx>
        path={pending ? '/api/v2/transactions?filter=pending' : '/api/v2/transactions?filter=validated'}
        live
        empty={pending ? 'No pending transactions.' : 'No transactions yet.'}
        render={(items) => <TxRows txs={items} caption={pending ? 'Pending transactions' : 'Transactions'} />}
      />
    </>
  );
}

function DecodedCall({ d, caption }: { d: Decoded; caption: string }) {
  return (
    <div>
      <code class="method-call">{d.method_call}</code>
      {d.parameters.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {d.parameters.map((p, i) => (
                <tr key={`${p.name}:${i}`}>
                  <td>{p.name}</td>
                  <td>
                    <code>{p.type}</code>
                  </td>
                  <td>
                    <code class="wrap">{formatValue(p.value)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

/** Failed: the decoded revert reason (Error(string), Panic or a custom error) or its raw data. */
function RevertReason({ tx }: { tx: Tx }) {
  const r = tx.revert_reason;
  if (!r) return null;
  const reason = r.parameters?.find((p) => p.name === 'reason' || p.type === 'string');
  return (
    <div class="revert" data-field="revert-reason">
      {reason ? (
        <strong>{String(reason.value)}</strong>
      ) : r.method_call ? (
        <DecodedCall d={r as Decoded} caption="Revert error" />
      ) : (
        <code class="wrap">{r.raw ?? JSON.stringify(r)}</code>
      )}
    </div>
  );
}

function Logs({ hash }: { hash: string }) {
  const { data } = useApi<Page<Log>>(`/api/v2/transactions/${hash}/logs`);
  if (!data) return <Loading />;
  if (data.items.length === 0) return <p class="muted">No logs.</p>;
  return (
    <ol class="logs">
      {data.items.map((l) => (
        <li key={l.index} class="card">
          <Details
            rows={[
              ['Address', <AddressLink key="a" a={l.address} short={false} />],
              ...(l.decoded
                ? ([['Event', <DecodedCall key="d" d={l.decoded} caption="Event arguments" />]] as [
                    string,
                    preact.ComponentChildren,
                  ][])
                : []),
              [
                'Topics',
                <ol key="t" class="topics" start={0}>
                  {l.topics
                    .filter((t): t is string => t !== null)
                    .map((t) => (
                      <li key={t}>
                        <code class="wrap">{t}</code>
                      </li>
                    ))}
                </ol>,
              ],
              [
                'Data',
                <code key="d" class="wrap">
                  {l.data}
                </code>,
              ],
            ]}
          />
        </li>
      ))}
    </ol>
  );
}

interface StateChange {
  address: AddressRef;
  is_miner: boolean;
  type: 'coin' | 'token';
  token: TokenInfo | null;
  token_id: string | null;
  balance_before: string | null;
  balance_after: string | null;
  change: string | null;
}

/** A balance in its unit: ETH for coin rows, the token's units (or an NFT count) for token rows. */
function amountOf(c: StateChange, v: string | null): string {
  if (c.type === 'coin') return formatEth(v);
  const t = c.token;
  if (!t) return v ?? '—';
  const text = t.type === 'ERC-20' ? formatUnits(v, Number(t.decimals ?? 0)) : (v ?? '—');
  return `${text} ${t.symbol ?? ''}`.trim();
}

/** Balance changes (Blockscout's state-changes): before, after and the difference, per address. */
function StateChanges({ hash }: { hash: string }) {
  return (
    <Paged<StateChange>
      path={`/api/v2/transactions/${hash}/state-changes`}
      empty="No state changes."
      render={(items) => (
        <Table caption="State changes" head={['Address', 'Asset', 'Before', 'After', 'Change']}>
          {items.map((c, i) => (
            <tr
              key={`${c.address.hash}:${c.token?.address_hash ?? 'coin'}:${c.token_id ?? ''}:${i}`}
              data-change={c.address.hash}
            >
              <td>
                <AddressLink a={c.address} />
                {c.is_miner ? <span class="muted"> (fee recipient)</span> : null}
              </td>
              <td>{c.type === 'coin' ? 'ETH' : (c.token?.name ?? c.token?.address_hash ?? 'token')}</td>
              <td>{amountOf(c, c.balance_before)}</td>
              <td>{amountOf(c, c.balance_after)}</td>
              <td>{amountOf(c, c.change)}</td>
            </tr>
          ))}
        </Table>
      )}
    />
  );
}

export function TxPage({ hash, tab }: { hash: string; tab: string }) {
  // Polled until mined, so a pending transaction turns into a mined one in place.
  const { data: t, error } = useApi<Tx>(`/api/v2/transactions/${encodeURIComponent(hash)}`, 2000);
  if (error) return <NotFound what={`Transaction ${hash}`} error={error} />;
  if (!t) return <Loading />;
  const base = `/tx/${t.hash}`;
  return (
    <>
      <h1>Transaction details</h1>
      <section aria-label="Transaction details" class="card">
        <Details
          rows={[
            ['Transaction hash', <Hash key="h" hash={t.hash} label="transaction hash" />],
            [
              'Status',
              <span key="s" data-field="status">
                <Status status={t.status} result={t.result} />
                <RevertReason tx={t} />
              </span>,
            ],
            [
              'Block',
              <span key="b" data-field="block">
                <BlockLink n={t.block_number} />
                {t.block_number !== null ? <span class="muted"> ({t.confirmations} confirmations)</span> : null}
              </span>,
            ],
            [
              'Timestamp',
              <span key="ts">
                <Time iso={t.timestamp} />
                {t.timestamp ? <span class="muted"> ({new Date(t.timestamp).toUTCString()})</span> : null}
              </span>,
            ],
            ['From', <AddressLink key="f" a={t.from} short={false} />],
            t.to
              ? ['To', <AddressLink key="to" a={t.to} short={false} />]
              : ['Contract created', <AddressLink key="cc" a={t.created_contract} short={false} />],
            [
              'Value',
              <span key="v" data-field="value">
                {formatEth(t.value)}
              </span>,
            ],
            [
              'Transaction fee',
              <span key="fee" data-field="fee">
                {formatEth(t.fee.value)}
              </span>,
            ],
            ['Gas price', <span key="gp">{formatGwei(t.gas_price)}</span>],
            [
              'Gas used / limit',
              <span key="g" data-field="gas">
                {formatInt(t.gas_used)} / {formatInt(t.gas_limit)}
              </span>,
            ],
            [
              'Nonce / position',
              <span key="n">
                {t.nonce} / {t.position ?? '—'}
              </span>,
            ],
            [
              'Method',
              <span key="m" data-field="method">
                {t.decoded_input ? (
                  <DecodedCall d={t.decoded_input} caption="Call arguments" />
                ) : (
                  <code>{methodOf(t)}</code>
                )}
              </span>,
            ],
            [
              'Input',
              <code key="i" class="wrap input">
                {t.raw_input}
              </code>,
            ],
          ]}
        />
      </section>
      <Tabs
        base={base}
        current={tab || 'token_transfers'}
        tabs={[
          ['token_transfers', 'Token transfers'],
          ['internal', 'Internal transactions'],
          ['logs', 'Logs'],
          ['state', 'State changes'],
        ]}
      />
      <section aria-label="Transaction activity">
        {tab === 'logs' ? (
          <Logs hash={t.hash} />
        ) : tab === 'state' ? (
          <StateChanges hash={t.hash} />
        ) : tab === 'internal' ? (
          <Paged<InternalTx>
            path={`/api/v2/transactions/${t.hash}/internal-transactions`}
            empty="No internal transactions."
            render={(items) => <InternalRows items={items} caption="Internal transactions" />}
          />
        ) : (
          <Paged<TokenTransfer>
            path={`/api/v2/transactions/${t.hash}/token-transfers`}
            empty="No token transfers."
            render={(items) => <TransferRows transfers={items} caption="Token transfers" />}
          />
        )}
      </section>
    </>
  );
}
