import { useEffect, useRef, useState } from 'preact/hooks';
import { getJson } from './api.js';
import { onNewHead } from './live.js';

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
}

/**
 * Fetches a path, again whenever it changes; when live (`pollMs` > 0) also on every new head the
 * node pushes over WebSocket and every `pollMs`, so a new block shows up without a reload and a
 * reverted one goes away. A path of null fetches nothing.
 */
export function useApi<T>(path: string | null, pollMs = 0): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: undefined, error: undefined, loading: path !== null });
  const pathRef = useRef(path);
  useEffect(() => {
    pathRef.current = path;
    if (path === null) return;
    setState({ data: undefined, error: undefined, loading: true });
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let loading = false;
    // A head announced mid-fetch: fetch once more after, the answer may predate the block.
    let again = false;
    const load = async (): Promise<void> => {
      if (loading) {
        again = true;
        return;
      }
      loading = true;
      again = false;
      if (timer) clearTimeout(timer);
      try {
        const data = await getJson<T>(path, controller.signal);
        if (pathRef.current === path) setState({ data, error: undefined, loading: false });
      } catch (e) {
        if (controller.signal.aborted) return;
        // A poll that fails keeps what is shown; a first load shows the error.
        setState((s) =>
          s.data !== undefined && pollMs > 0 ? s : { data: undefined, error: e as Error, loading: false },
        );
      } finally {
        loading = false;
      }
      if (controller.signal.aborted) return;
      if (again) return load();
      if (pollMs > 0) timer = setTimeout(load, pollMs);
    };
    void load();
    // Live lists also refresh the moment the node announces a block.
    const unsubscribe = pollMs > 0 ? onNewHead(() => void load()) : undefined;
    return () => {
      controller.abort();
      unsubscribe?.();
      if (timer) clearTimeout(timer);
    };
  }, [path, pollMs]);
  return state;
}

let nowListeners = new Set<(n: number) => void>();
let ticker: ReturnType<typeof setInterval> | undefined;

/** The current time, ticking each second while something shows a relative time. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    nowListeners.add(setNow);
    ticker ??= setInterval(() => {
      const t = Date.now();
      for (const l of nowListeners) l(t);
    }, 1000);
    return () => {
      nowListeners.delete(setNow);
      if (nowListeners.size === 0 && ticker) {
        clearInterval(ticker);
        ticker = undefined;
        nowListeners = new Set();
      }
    };
  }, []);
  return now;
}
