import { formatEth, formatUnits } from '../format.js';
import { highlight } from '../highlight.js';
import { useApi } from '../hooks.js';
import { InternalRows, TransferRows, TxRows } from '../lists.js';
import type { Address, InternalTx, SmartContract, TokenInfo, TokenTransfer, Tx } from '../types.js';
import { AddressLink, Details, Hash, Loading, Paged, Table, Tabs, TxLink } from '../ui.js';
import { ReadMethods, WriteMethods } from './contractMethods.js';
import { NotFound } from './notFound.js';

interface TokenBalance {
  token: TokenInfo;
  token_id: string | null;
  value: string;
}

function TokenBalances({ hash }: { hash: string }) {
  const { data } = useApi<TokenBalance[]>(`/api/v2/addresses/${hash}/token-balances`);
  if (!data) return <Loading />;
  if (data.length === 0) return <p class="muted">No tokens.</p>;
  return (
    <Table caption="Token balances" head={['Token', 'Type', 'Balance']}>
      {data.map((b) => (
        <tr key={`${b.token.address_hash}:${b.token_id ?? ''}`}>
          <td>
            <a href={`/token/${b.token.address_hash}`}>{b.token.name ?? b.token.address_hash}</a>
          </td>
          <td>{b.token.type}</td>
          <td>
            {b.token_id !== null
              ? `${b.value} × #${b.token_id}`
              : `${formatUnits(b.value, Number(b.token.decimals ?? 0))} ${b.token.symbol ?? ''}`}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The ABI one entry a line; the API may give it as JSON text (Blockscout's OpenAPI types it a string) or as an array. */
function prettyAbi(abi: SmartContract['abi']): string {
  let entries: unknown = abi ?? [];
  if (typeof entries === 'string') {
    try {
      entries = JSON.parse(entries);
    } catch {
      return entries as string;
    }
  }
  if (!Array.isArray(entries)) return JSON.stringify(entries);
  return `[\n${entries.map((e) => `  ${JSON.stringify(e)}`).join(',\n')}\n]`;
}

/** A contract's code; for a verified one its source and ABI too. */
function Contract({ hash }: { hash: string }) {
  const { data } = useApi<SmartContract>(`/api/v2/smart-contracts/${hash}`);
  if (!data) return <Loading />;
  return (
    <div class="contract">
      {data.is_verified ? (
        <>
          <p>
            <span class="badge ok">Verified</span> {data.name} <span class="muted">{data.compiler_version}</span>
          </p>
          <h3>Read</h3>
          <ReadMethods hash={hash} />
          <h3>Write</h3>
          <WriteMethods hash={hash} />
          <h3>Source</h3>
          <pre data-field="source">
            <code>{highlight(data.source_code ?? '')}</code>
          </pre>
          <h3>ABI</h3>
          <pre data-field="abi">
            <code>{prettyAbi(data.abi)}</code>
          </pre>
        </>
      ) : (
        <p class="muted">Not verified: start the node with --artifacts or verify it through /api/v2.</p>
      )}
      <details>
        <summary>Deployed bytecode ({Math.max(0, ((data.deployed_bytecode ?? '0x').length - 2) / 2)} bytes)</summary>
        <pre data-field="bytecode">
          <code class="wrap">{data.deployed_bytecode ?? '0x'}</code>
        </pre>
      </details>
    </div>
  );
}

export function AddressPage({ hash, tab }: { hash: string; tab: string }) {
  const { data: a, error } = useApi<Address>(`/api/v2/addresses/${encodeURIComponent(hash)}`, 2000);
  if (error) return <NotFound what={`Address ${hash}`} error={error} />;
  if (!a) return <Loading />;
  const base = `/address/${a.hash}`;
  const tabs: [string, string][] = [
    ['txs', 'Transactions'],
    ['token_transfers', 'Token transfers'],
    ['tokens', 'Tokens'],
    ['internal_txns', 'Internal txns'],
  ];
  if (a.is_contract) tabs.push(['contract', 'Contract']);
  const current = tab || 'txs';
  return (
    <>
      <h1>{a.is_contract ? 'Contract' : 'Address'}</h1>
      <section aria-label="Address details" class="card">
        <Details
          rows={[
            ['Address', <Hash key="h" hash={a.hash} label="address" />],
            ...(a.name ? ([['Name', <span key="n">{a.name}</span>]] as [string, preact.ComponentChildren][]) : []),
            [
              'Balance',
              <span key="b" data-field="balance">
                {formatEth(a.coin_balance ?? '0')}
              </span>,
            ],
            ...(a.token
              ? ([
                  [
                    'Token',
                    <a key="t" href={`/token/${a.hash}`}>
                      {a.token.name} ({a.token.symbol})
                    </a>,
                  ],
                ] as [string, preact.ComponentChildren][])
              : []),
            ...(a.creator_address_hash && a.creation_transaction_hash
              ? ([
                  [
                    'Creator',
                    <span key="c">
                      <AddressLink a={a.creator_address_hash} /> in <TxLink hash={a.creation_transaction_hash} />
                    </span>,
                  ],
                ] as [string, preact.ComponentChildren][])
              : []),
          ]}
        />
      </section>
      <Tabs base={base} current={current} tabs={tabs} />
      <section aria-label={tabs.find(([id]) => id === current)?.[1] ?? 'Activity'}>
        {current === 'token_transfers' ? (
          <Paged<TokenTransfer>
            path={`/api/v2/addresses/${a.hash}/token-transfers`}
            empty="No token transfers."
            render={(items) => <TransferRows transfers={items} caption="Token transfers" />}
          />
        ) : current === 'tokens' ? (
          <TokenBalances hash={a.hash} />
        ) : current === 'internal_txns' ? (
          <Paged<InternalTx>
            path={`/api/v2/addresses/${a.hash}/internal-transactions`}
            empty="No internal transactions."
            render={(items) => <InternalRows items={items} caption="Internal transactions" />}
          />
        ) : current === 'contract' ? (
          <Contract hash={a.hash} />
        ) : (
          <Paged<Tx>
            path={`/api/v2/addresses/${a.hash}/transactions`}
            live
            empty="No transactions."
            render={(items) => <TxRows txs={items} caption="Transactions" />}
          />
        )}
      </section>
    </>
  );
}
