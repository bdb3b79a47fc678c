import { type DevServices, ErrorCodes, AshlarError, type KernelServices } from '@ashlar/core';

/** The kernel's dev services; the rpc:dev plugin installs them before any of its methods can run. */
export function dev(services: KernelServices): DevServices {
  const s = services.dev;
  if (!s) throw new AshlarError(ErrorCodes.INTERNAL, 'the dev services are not installed (plugin rpc:dev)');
  return s;
}
