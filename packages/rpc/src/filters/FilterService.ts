import { AshlarError, ErrorCodes, token } from '@ashlar/core';
import type { LogFilter } from '../params/index.js';
import type { ChainFeed, FeedListener } from '../subscriptions/ChainFeed.js';
import { newSubscriptionId } from '../subscriptions/ids.js';
import { liveLogFilter, matchingLogs } from '../subscriptions/liveLogFilter.js';

export type FilterKind = 'logs' | 'blocks' | 'pendingTransactions';

interface Installed {
  kind: FilterKind;
  /** Log filters only: the criteria eth_getFilterLogs runs again. */
  criteria?: LogFilter;
  /** What happened since the last poll. */
  items: unknown[];
  lastPoll: number;
  stop: () => void;
}

const notFound = () => new AshlarError(ErrorCodes.FILTER_NOT_FOUND, 'filter not found');

/**
 * Polling filters (eth_newFilter & co.): global to the kernel, as in geth, so they work over
 * HTTP. Each filter collects what happened since its last poll; one not polled for
 * `timeoutMs` is gone. Expiry is exact on access; a sweep timer (unref'd, running only while
 * filters exist) frees the memory of filters nobody polls any more.
 */
export class FilterService {
  private readonly filters = new Map<string, Installed>();
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly feed: ChainFeed,
    readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Installed filters (expired ones count until polled or swept). */
  get size(): number {
    return this.filters.size;
  }

  /** eth_newFilter: logs of new blocks that match; logs of removed blocks again with `removed: true`. */
  installLogs(criteria: LogFilter): string {
    const live = liveLogFilter(criteria);
    return this.install('logs', criteria, (f) => ({
      block(view) {
        for (const log of matchingLogs(view, live)) f.items.push(log);
      },
      revert(removed) {
        for (const view of removed) for (const log of matchingLogs(view, live)) f.items.push(log);
      },
    }));
  }

  /** eth_newBlockFilter: hashes of new blocks. */
  installBlocks(): string {
    return this.install('blocks', undefined, (f) => ({ block: (view) => f.items.push(view.hash) }));
  }

  /** eth_newPendingTransactionFilter: hashes (or whole transactions) entering the pool. */
  installPending(full: boolean): string {
    return this.install('pendingTransactions', undefined, (f) => ({
      pending: full ? (view) => f.items.push(view.transaction()) : (view) => f.items.push(view.hash),
    }));
  }

  /**
   * eth_getFilterChanges: what happened since the last poll; the poll keeps the filter alive.
   * A log filter answers at most `maxLogs` (eth_getLogs' result limit) oldest first; the rest
   * wait for the next poll, so no log is lost and no answer is larger than eth_getLogs'.
   */
  changes(id: string, maxLogs = Number.POSITIVE_INFINITY): unknown[] {
    const f = this.get(id);
    f.lastPoll = this.now();
    if (f.kind === 'logs' && f.items.length > maxLogs) return f.items.splice(0, maxLogs);
    const out = f.items;
    f.items = [];
    return out;
  }

  /** eth_getFilterLogs: the criteria of a log filter (geth does not count this as a poll). */
  logCriteria(id: string): LogFilter {
    const f = this.get(id);
    if (f.criteria === undefined) throw notFound();
    return f.criteria;
  }

  /** eth_uninstallFilter: true when there was such a filter. */
  uninstall(id: string): boolean {
    const key = id.toLowerCase();
    const f = this.filters.get(key);
    if (f === undefined) return false;
    this.remove(key, f);
    return !this.expired(f);
  }

  /** Drops every filter whose time is up. */
  sweep(): void {
    for (const [id, f] of this.filters) if (this.expired(f)) this.remove(id, f);
  }

  /** Drops everything and stops the timer (the kernel is closing). */
  close(): void {
    this.closed = true;
    for (const [id, f] of this.filters) this.remove(id, f);
  }

  private install(kind: FilterKind, criteria: LogFilter | undefined, listen: (f: Installed) => FeedListener): string {
    if (this.closed) throw new AshlarError(ErrorCodes.CLOSED, 'the chain is closed');
    const f: Installed = { kind, items: [], lastPoll: this.now(), stop: () => {} };
    if (criteria !== undefined) f.criteria = criteria;
    f.stop = this.feed.listen(listen(f));
    const id = newSubscriptionId();
    this.filters.set(id, f);
    if (this.sweeper === undefined) {
      this.sweeper = setInterval(() => this.sweep(), Math.min(this.timeoutMs, 60_000));
      // Housekeeping must never keep a process alive.
      this.sweeper.unref();
    }
    return id;
  }

  private get(id: string): Installed {
    const key = id.toLowerCase();
    const f = this.filters.get(key);
    if (f === undefined) throw notFound();
    if (this.expired(f)) {
      this.remove(key, f);
      throw notFound();
    }
    return f;
  }

  private expired(f: Installed): boolean {
    return this.now() - f.lastPoll >= this.timeoutMs;
  }

  private remove(id: string, f: Installed): void {
    f.stop();
    f.items = [];
    this.filters.delete(id);
    if (this.filters.size === 0 && this.sweeper !== undefined) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}

/** The filter registry of a kernel: `kernel.resolve(FiltersToken).size`. */
export const FiltersToken = token<FilterService>('rpc:filters');
