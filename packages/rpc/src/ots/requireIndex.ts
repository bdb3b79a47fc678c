import { AshlarError, ErrorCodes, type IndexService, type KernelServices } from '@ashlar/core';

/** The explorer index the address-history methods read; a clear error when the node runs without it. */
export function requireIndex(services: KernelServices, method: string): IndexService {
  const index = services.index;
  if (!index)
    throw new AshlarError(
      ErrorCodes.EXECUTION,
      `${method} needs the explorer index, which this node does not run (install the explorer plugin; the ashlar CLI does)`,
    );
  return index;
}
