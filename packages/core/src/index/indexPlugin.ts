import { definePlugin } from '../kernel/definePlugin.js';
import type { IndexOptions } from './IndexService.js';
import { installIndex } from './installIndex.js';

/** The index plugin's name: plugins that read the index (`explorer`, `rpc:ots`) list it in `dependencies`. */
export const INDEX_PLUGIN = 'index';

/**
 * The explorer index as a plugin of its own: installs the kernel's IndexService (address
 * history, token transfers, internal transactions, counters), brought up to the head on start
 * and following every block, as `ctx.services.index`. A kernel without it pays nothing for it.
 */
export function indexPlugin(options: IndexOptions = {}) {
  return definePlugin<IndexOptions>({
    name: INDEX_PLUGIN,
    options,
    async register(ctx, opts) {
      await installIndex(ctx, opts);
    },
  });
}
