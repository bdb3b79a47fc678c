import { AshlarError, definePlugin, ErrorCodes, type Plugin } from '@ashlar/core';
import { ChainFeed } from '../subscriptions/ChainFeed.js';
import { eth_getFilterChanges } from './eth_getFilterChanges.js';
import { eth_getFilterLogs } from './eth_getFilterLogs.js';
import { eth_newBlockFilter } from './eth_newBlockFilter.js';
import { eth_newFilter } from './eth_newFilter.js';
import { eth_newPendingTransactionFilter } from './eth_newPendingTransactionFilter.js';
import { eth_uninstallFilter } from './eth_uninstallFilter.js';
import { FilterService, FiltersToken } from './FilterService.js';

/** geth's filter timeout: a filter not polled for 5 minutes is removed. */
export const DEFAULT_FILTER_TIMEOUT_MS = 5 * 60_000;

export interface FiltersOptions {
  /** How long a filter lives without a poll, in milliseconds (default 5 minutes, as geth). */
  timeoutMs?: number;
}

export const filterMethods = [
  eth_newFilter,
  eth_newBlockFilter,
  eth_newPendingTransactionFilter,
  eth_getFilterChanges,
  eth_getFilterLogs,
  eth_uninstallFilter,
];

/**
 * Polling filters over any transport: `filtersPlugin({ timeoutMs: 60_000 })` for a shorter
 * life than geth's 5 minutes. Filters are dropped, and their timer stopped, when the kernel closes.
 * Depends on rpc:eth: eth_getFilterLogs answers with eth_getLogs' own handler and limits, and a
 * polling client reads the blocks and receipts its filters name through the eth namespace.
 */
export function filtersPlugin(options: FiltersOptions = {}): Plugin<FiltersOptions> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FILTER_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new AshlarError(
      ErrorCodes.OPTIONS,
      `rpc:filters timeoutMs must be a positive number of milliseconds, got ${String(options.timeoutMs)}`,
    );
  }
  return definePlugin<FiltersOptions>({
    name: 'rpc:filters',
    dependencies: ['rpc:eth'],
    options: { timeoutMs },
    register(ctx) {
      const feed = new ChainFeed(ctx.events, (e) =>
        ctx.logger.error(`filter update failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
      );
      const service = new FilterService(feed, timeoutMs);
      ctx.provide(FiltersToken, () => service);
      ctx.addMethods(...filterMethods);
    },
    // This kernel's service (one plugin object may serve several kernels), in reverse plugin order.
    close: (ctx) => ctx.resolve(FiltersToken).close(),
  });
}

export { type FilterKind, FilterService, FiltersToken } from './FilterService.js';
