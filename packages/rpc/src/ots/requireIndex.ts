import { AshlarError, ErrorCodes, type IndexService, type Kernel, indexOf } from '@ashlar/core';

/** The explorer index the address-history methods read; a clear error when the node runs without it. */
export function requireIndex(kernel: Kernel, method: string): IndexService {
  const index = indexOf(kernel);
  if (!index)
    throw new AshlarError(
      ErrorCodes.EXECUTION,
      `${method} needs the explorer index, which this node does not run (install the explorer plugin; the ashlar CLI does)`,
    );
  return index;
}
