import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { withParams } from './api.js';
import { absoluteTime, relativeTime, shortHash } from './format.js';
import { useApi, useNow } from './hooks.js';
import type { AddressRef, Page } from './types.js';

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/** A button that copies `text`; it says so in its label and, after a click, in a live region. */
export function Copy({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      class="copy"
      aria-label={`Copy ${label}`}
      title={`Copy ${label}`}
      onClick={() =>
        void copyText(text).then(() => {
          setDone(true);
          setTimeout(() => setDone(false), 1500);
        })
      }
    >
      {done ? (
        '✓'
      ) : (
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <rect x="9" y="9" width="11" height="11" rx="2" />
          <path d="M5 15V5a2 2 0 0 1 2-2h10" />
        </svg>
      )}
      <span class="sr-only" aria-live="polite">
        {done ? 'Copied' : ''}
      </span>
    </button>
  );
}

/** A hash shown in full (wrapping) or shortened, with its copy button and an optional link. */
export function Hash({ hash, href, short, label }: { hash: string; href?: string; short?: boolean; label: string }) {
  const text = short ? shortHash(hash) : hash;
  return (
    <span class="hash">
      {href ? (
        <a href={href} title={hash}>
          <code>{text}</code>
        </a>
      ) : (
        <code title={hash}>{text}</code>
      )}
      <Copy text={hash} label={label} />
    </span>
  );
}

/** An address linked to its page: a verified contract's name in tables, name and full hash on detail pages. */
export function AddressLink({ a, short = true }: { a: AddressRef | string | null | undefined; short?: boolean }) {
  if (!a) return <span>—</span>;
  const hash = typeof a === 'string' ? a : a.hash;
  const name = typeof a === 'string' ? null : a.name;
  return (
    <span class="hash">
      {typeof a !== 'string' && a.is_contract ? (
        <span class="tag" title="contract">
          C
        </span>
      ) : null}
      <a href={`/address/${hash}`} title={hash}>
        {name && !short ? <span class="name">{name} </span> : null}
        <code>{short ? (name ?? shortHash(hash)) : hash}</code>
      </a>
      <Copy text={hash} label="address" />
    </span>
  );
}

export const TxLink = ({ hash, short = true }: { hash: string; short?: boolean }) => (
  <Hash hash={hash} href={`/tx/${hash}`} short={short} label="transaction hash" />
);

export const BlockLink = ({ n }: { n: number | null | undefined }) =>
  n === null || n === undefined ? <span>pending</span> : <a href={`/block/${n}`}>{n}</a>;

/** Relative time, with the absolute time as its text alternative and tooltip. */
export function Time({ iso }: { iso: string | null | undefined }) {
  const now = useNow();
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={absoluteTime(iso)}>
      {relativeTime(iso, now)}
    </time>
  );
}

export function Status({ status, result }: { status: string | null; result?: string }) {
  if (status === null) return <span class="badge pending">Pending</span>;
  return status === 'ok' ? (
    <span class="badge ok">Success</span>
  ) : (
    <span class="badge error">Failed{result && result !== 'error' ? `: ${result}` : ''}</span>
  );
}

export function Loading() {
  return (
    <p class="muted" role="status">
      Loading…
    </p>
  );
}

export function Failure({ error }: { error: Error }) {
  return (
    <p class="error-box" role="alert">
      {error.message}
    </p>
  );
}

/** A list of term/detail rows (the body of a block, transaction, address or token page). */
export function Details({ rows }: { rows: [string, ComponentChildren][] }) {
  return (
    <dl class="details">
      {rows.map(([term, detail]) => (
        <div class="row" key={term}>
          <dt>{term}</dt>
          <dd>{detail}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Table({ caption, head, children }: { caption: string; head: string[]; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/**
 * A paged /api/v2 list: `next_page_params` drive Next, a stack of earlier params drives Previous.
 * The first page is polled when `live` (new items appear on top).
 */
export function Paged<T>({
  path,
  live = false,
  empty,
  render,
}: {
  path: string;
  live?: boolean;
  empty: string;
  render: (items: T[]) => ComponentChildren;
}) {
  const [stack, setStack] = useState<(Record<string, unknown> | null)[]>([null]);
  const [forPath, setForPath] = useState(path);
  if (forPath !== path) {
    setForPath(path);
    setStack([null]);
  }
  const params = stack[stack.length - 1] ?? null;
  const { data, error } = useApi<Page<T>>(withParams(path, params), live && stack.length === 1 ? 1000 : 0);
  if (error) return <Failure error={error} />;
  if (!data) return <Loading />;
  return (
    <div>
      {data.items.length === 0 ? <p class="muted">{empty}</p> : render(data.items)}
      {stack.length > 1 || data.next_page_params ? (
        <nav class="pager" aria-label="Pages">
          <button type="button" disabled={stack.length === 1} onClick={() => setStack(stack.slice(0, -1))}>
            Previous
          </button>
          <span>Page {stack.length}</span>
          <button
            type="button"
            disabled={!data.next_page_params}
            onClick={() => setStack([...stack, data.next_page_params])}
          >
            Next
          </button>
        </nav>
      ) : null}
    </div>
  );
}

/** Tabs as links (`?tab=`), so each tab has a URL and works with the keyboard like any link. */
export function Tabs({ base, current, tabs }: { base: string; current: string; tabs: [string, string][] }) {
  return (
    <nav class="tabs" aria-label="Sections">
      {tabs.map(([id, label], i) => (
        <a
          key={id}
          href={i === 0 ? base : `${base}?tab=${id}`}
          aria-current={id === current ? 'page' : undefined}
          class={id === current ? 'active' : undefined}
        >
          {label}
        </a>
      ))}
    </nav>
  );
}
