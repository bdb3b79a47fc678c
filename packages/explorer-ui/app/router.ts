import { useEffect, useState } from 'preact/hooks';

// A History API router for Blockscout's URL scheme: the node answers any page URL with the app.

const listeners = new Set<() => void>();

export function navigate(url: string, replace = false): void {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const l of listeners) l();
  if (!replace) window.scrollTo(0, 0);
}

export interface Route {
  path: string;
  query: URLSearchParams;
}

const current = (): Route => ({ path: location.pathname, query: new URLSearchParams(location.search) });

/** The current location; re-renders on navigate() and on the browser's back/forward. */
export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  const [first] = useState(() => location.pathname + location.search);
  useEffect(() => {
    const update = () => setRoute(current());
    listeners.add(update);
    window.addEventListener('popstate', update);
    // Children's effects run first: a page that redirected on mount (search) did so before this.
    if (location.pathname + location.search !== first) update();
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** Same-origin link clicks become navigate(); modified clicks (new tab…) stay the browser's. */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest('a');
    if (!a || a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api')) return;
    e.preventDefault();
    navigate(url.pathname + url.search);
  });
}
