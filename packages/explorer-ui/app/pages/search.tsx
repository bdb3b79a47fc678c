import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api.js';
import { useApi } from '../hooks.js';
import { navigate } from '../router.js';
import type { Page, SearchItem } from '../types.js';
import { Loading, Table } from '../ui.js';

function hrefOf(item: SearchItem): string | undefined {
  switch (item.type) {
    case 'block':
      return `/block/${item.block_number ?? item.block_hash}`;
    case 'transaction':
      return `/tx/${item.transaction_hash}`;
    case 'token':
      return `/token/${item.address_hash}`;
    default:
      return item.address_hash ? `/address/${item.address_hash}` : undefined;
  }
}

/** `/search?q=`: an exact block, transaction or address goes straight to its page; else a result list. */
export function Search({ q }: { q: string }) {
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    setChecked(false);
    const query = q.trim();
    // A block number: Blockscout opens the block.
    if (/^\d+$/.test(query)) {
      navigate(`/block/${query}`, true);
      return;
    }
    getJson<{ redirect: boolean; type?: string; parameter?: string }>(
      `/api/v2/search/check-redirect?q=${encodeURIComponent(query)}`,
    )
      .then((r) => {
        if (r.redirect && r.parameter) {
          const path = r.type === 'transaction' ? 'tx' : r.type === 'block' ? 'block' : 'address';
          navigate(`/${path}/${r.parameter}`, true);
        } else setChecked(true);
      })
      .catch(() => setChecked(true));
  }, [q]);
  const { data } = useApi<Page<SearchItem>>(checked ? `/api/v2/search?q=${encodeURIComponent(q.trim())}` : null);
  return (
    <>
      <h1>Search results for “{q}”</h1>
      {!checked || !data ? (
        <Loading />
      ) : data.items.length === 0 ? (
        <p>Nothing on this chain matches “{q}”.</p>
      ) : (
        <Table caption="Search results" head={['Result', 'Type']}>
          {data.items.map((item, i) => {
            const href = hrefOf(item);
            const label = item.name
              ? `${item.name}${item.symbol ? ` (${item.symbol})` : ''}`
              : (item.transaction_hash ?? item.address_hash ?? item.block_hash ?? String(item.block_number));
            return (
              <tr key={`${item.type}:${i}`}>
                <td>{href ? <a href={href}>{label}</a> : label}</td>
                <td>{item.token_type ?? item.type}</td>
              </tr>
            );
          })}
        </Table>
      )}
    </>
  );
}
