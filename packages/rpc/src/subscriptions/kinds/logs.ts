import { decodeLogFilter } from '../../params/index.js';
import { liveLogFilter, matchingLogs } from '../liveLogFilter.js';
import type { SubscriptionKind } from './types.js';

/**
 * `logs`: each matching log of each new block, one notification per log as geth sends them.
 * When blocks leave the chain (snapshot revert, reset), their matching logs are sent again
 * with `removed: true`, newest block first, so a client can undo what it applied.
 */
export const logs: SubscriptionKind = {
  prepare(options) {
    const live = liveLogFilter(
      options === undefined || options === null ? { addresses: [], topics: [] } : decodeLogFilter(options),
    );
    return (notify) => ({
      block(view) {
        for (const log of matchingLogs(view, live)) notify(log);
      },
      revert(removed) {
        for (const view of removed) for (const log of matchingLogs(view, live)) notify(log);
      },
    });
  },
};
