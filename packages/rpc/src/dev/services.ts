import { type DevServices, ErrorCodes, AshlarError, type Kernel, devServicesOf } from '@ashlar/core';

/** The kernel's dev services; the rpc:dev plugin installs them before any of its methods can run. */
export function dev(kernel: Kernel): DevServices {
  const s = devServicesOf(kernel);
  if (!s) throw new AshlarError(ErrorCodes.INTERNAL, 'the dev services are not installed (plugin rpc:dev)');
  return s;
}
