import { formatEth, formatInt, formatUnits } from './format.js';
import type { Block, InternalTx, TokenTransfer, Tx } from './types.js';
import { AddressLink, BlockLink, Hash, Status, Table, Time, TxLink } from './ui.js';

export function BlockRows({ blocks, caption }: { blocks: Block[]; caption: string }) {
  return (
    <Table caption={caption} head={['Block', 'Age', 'Txns', 'Gas used', 'Base fee', 'Hash']}>
      {blocks.map((b) => (
        <tr key={b.hash} data-block={b.height}>
          <td>
            <BlockLink n={b.height} />
          </td>
          <td>
            <Time iso={b.timestamp} />
          </td>
          <td>{b.transactions_count}</td>
          <td>{formatInt(b.gas_used)}</td>
          <td>{b.base_fee_per_gas === null ? '—' : `${formatUnits(b.base_fee_per_gas, 9)} Gwei`}</td>
          <td>
            <Hash hash={b.hash} href={`/block/${b.hash}`} short label="block hash" />
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The method a transaction calls: decoded name, else the selector, else the kind of transfer. */
export function methodOf(t: Pick<Tx, 'method' | 'raw_input' | 'to' | 'created_contract'>): string {
  if (t.method) return t.method;
  if (!t.to) return 'Create';
  return t.raw_input && t.raw_input.length >= 10 ? t.raw_input.slice(0, 10) : 'Transfer';
}

/** Transactions as a table; `compact` (the home page's half-width column) leaves out method and block. */
export function TxRows({ txs, caption, compact = false }: { txs: Tx[]; caption: string; compact?: boolean }) {
  const head = compact
    ? ['Hash', 'Age', 'From / to', 'Value', 'Status']
    : ['Hash', 'Method', 'Block', 'Age', 'From', 'To', 'Value', 'Status'];
  return (
    <Table caption={caption} head={head}>
      {txs.map((t) => (
        <tr key={t.hash} data-tx={t.hash}>
          <td>
            <TxLink hash={t.hash} />
          </td>
          {compact ? null : (
            <>
              <td>
                <span class="method">{methodOf(t)}</span>
              </td>
              <td>
                <BlockLink n={t.block_number} />
              </td>
            </>
          )}
          <td>
            <Time iso={t.timestamp} />
          </td>
          {compact ? (
            <td>
              <div class="parties">
                <AddressLink a={t.from} />
                <span>
                  <span aria-hidden="true">→</span>
                  <span class="sr-only">to</span> <AddressLink a={t.to ?? t.created_contract} />
                </span>
              </div>
            </td>
          ) : (
            <>
              <td>
                <AddressLink a={t.from} />
              </td>
              <td>
                <AddressLink a={t.to ?? t.created_contract} />
              </td>
            </>
          )}
          <td>{formatEth(t.value)}</td>
          <td>
            <Status status={t.status} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** A transfer's amount: token units for ERC-20, the token id (and amount) for NFTs. */
export function transferAmount(t: TokenTransfer): string {
  const sym = t.token.symbol ?? '';
  if (t.total.token_id !== undefined && t.total.token_id !== null) {
    const amount = t.total.value && t.token.type === 'ERC-1155' ? `${t.total.value} × ` : '';
    return `${amount}#${t.total.token_id} ${sym}`.trim();
  }
  const decimals = Number(t.total.decimals ?? t.token.decimals ?? 0);
  return `${formatUnits(t.total.value ?? '0', decimals)} ${sym}`.trim();
}

export function TransferRows({ transfers, caption }: { transfers: TokenTransfer[]; caption: string }) {
  return (
    <Table caption={caption} head={['Transaction', 'Age', 'From', 'To', 'Amount', 'Token']}>
      {transfers.map((t) => (
        <tr key={`${t.transaction_hash}:${t.log_index}`}>
          <td>
            <TxLink hash={t.transaction_hash} />
          </td>
          <td>
            <Time iso={t.timestamp} />
          </td>
          <td>
            <AddressLink a={t.from} />
          </td>
          <td>
            <AddressLink a={t.to} />
          </td>
          <td>{transferAmount(t)}</td>
          <td>
            <a href={`/token/${t.token.address_hash}`}>{t.token.name ?? t.token.address_hash}</a>{' '}
            <span class="muted">{t.token.type}</span>
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function InternalRows({ items, caption }: { items: InternalTx[]; caption: string }) {
  return (
    <Table caption={caption} head={['Type', 'From', 'To', 'Value', 'Gas limit', 'Result', 'Transaction']}>
      {items.map((t) => (
        <tr key={`${t.transaction_hash}:${t.index}`}>
          <td>{t.call_type ?? t.type}</td>
          <td>
            <AddressLink a={t.from} />
          </td>
          <td>
            <AddressLink a={t.to ?? t.created_contract} />
          </td>
          <td>{formatEth(t.value)}</td>
          <td>{formatInt(t.gas_limit)}</td>
          <td>
            {t.success ? <span class="badge ok">Success</span> : <span class="badge error">{t.error ?? 'Failed'}</span>}
          </td>
          <td>
            <TxLink hash={t.transaction_hash} />
          </td>
        </tr>
      ))}
    </Table>
  );
}
