import { useEffect, useRef } from 'preact/hooks';
import { AddressPage } from './pages/address.js';
import { BlockPage, Blocks } from './pages/blocks.js';
import { VerifiedContracts } from './pages/contracts.js';
import { Home } from './pages/home.js';
import { NotFound } from './pages/notFound.js';
import { Search } from './pages/search.js';
import { TokenPage, Tokens } from './pages/tokens.js';
import { TxPage, Txs } from './pages/txs.js';
import { navigate, type Route, useRoute } from './router.js';

const NAV: [string, string][] = [
  ['/', 'Home'],
  ['/blocks', 'Blocks'],
  ['/txs', 'Transactions'],
  ['/tokens', 'Tokens'],
  ['/verified-contracts', 'Contracts'],
];

/** The page for a path, following Blockscout's URL scheme. */
function page({ path, query }: Route) {
  const [, first = '', second] = path.split('/');
  const arg = second === undefined ? undefined : decodeURIComponent(second);
  const tab = query.get('tab') ?? '';
  if (path === '/') return { title: 'Home', node: <Home /> };
  if (path === '/blocks') return { title: 'Blocks', node: <Blocks /> };
  if (path === '/txs') return { title: 'Transactions', node: <Txs tab={tab} /> };
  if (path === '/tokens') return { title: 'Tokens', node: <Tokens /> };
  if (path === '/verified-contracts') return { title: 'Verified contracts', node: <VerifiedContracts /> };
  if (path === '/search') return { title: 'Search', node: <Search q={query.get('q') ?? ''} /> };
  if (arg !== undefined) {
    if (first === 'block') return { title: `Block ${arg}`, node: <BlockPage key={arg} id={arg} /> };
    if (first === 'tx') return { title: `Transaction ${arg}`, node: <TxPage key={arg} hash={arg} tab={tab} /> };
    if (first === 'address') return { title: `Address ${arg}`, node: <AddressPage key={arg} hash={arg} tab={tab} /> };
    if (first === 'token') return { title: `Token ${arg}`, node: <TokenPage key={arg} hash={arg} tab={tab} /> };
  }
  return { title: 'Not found', node: <NotFound /> };
}

function SearchForm({ initial }: { initial: string }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <search class="search">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const q = input.current?.value.trim() ?? '';
          if (q) navigate(`/search?q=${encodeURIComponent(q)}`);
        }}
      >
        <label for="q" class="sr-only">
          Search by block, transaction, address or token
        </label>
        <input
          id="q"
          ref={input}
          type="search"
          name="q"
          defaultValue={initial}
          placeholder="Block, tx hash, address or token"
          autocomplete="off"
          spellcheck={false}
        />
        <button type="submit">Search</button>
      </form>
    </search>
  );
}

export function App() {
  const route = useRoute();
  const { title, node } = page(route);
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    document.title = `${title} · Ashlar explorer`;
  }, [title]);
  const section = `/${route.path.split('/')[1] ?? ''}`;
  const activeNav = (href: string) =>
    href === route.path ||
    (href === '/blocks' && section === '/block') ||
    (href === '/txs' && section === '/tx') ||
    (href === '/tokens' && section === '/token');
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a href="/" class="brand">
          Ashlar
        </a>
        <nav aria-label="Main">
          {NAV.map(([href, label]) => (
            <a key={href} href={href} aria-current={activeNav(href) ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <SearchForm key={route.path} initial={route.path === '/search' ? (route.query.get('q') ?? '') : ''} />
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {node}
      </main>
      <footer>
        Served by your Ashlar node · <a href="/api/v2/stats">/api/v2</a>
      </footer>
    </>
  );
}
