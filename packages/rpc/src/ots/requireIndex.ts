import { AshlarError, ErrorCodes, type IndexService, type KernelServices } from '@ashlar/core';

/**
 * The index the address-history methods read. `rpc:ots` declares the `index` plugin, so this
 * only fails for these methods mounted by another plugin that does not: a clear error then.
 */
export function requireIndex(services: KernelServices, method: string): IndexService {
  const index = services.index;
  if (!index)
    throw new AshlarError(
      ErrorCodes.EXECUTION,
      `${method} needs the index, which this node does not run (mount core's indexPlugin() and list "index" in the plugin's dependencies; the ashlar CLI runs it)`,
    );
  return index;
}
