// Dev-chain services behind the hardhat_/anvil_/evm_ methods: snapshots, reserved blocks,
// impersonation, state edits and dumps, message signing. The `rpc:dev` plugin installs them.
import type { PluginContext } from '../kernel/definePlugin.js';
import type { KernelServices } from '../kernel/services.js';
import { AddressBook } from './AddressBook.js';
import { type DevServices, DevTokens } from './DevServices.js';
import { Impersonation } from './Impersonation.js';
import { ReservedBlocks } from './ReservedBlocks.js';
import { SnapshotService } from './SnapshotService.js';

export { AddressBook } from './AddressBook.js';
export { type DevServices, DevTokens } from './DevServices.js';
export { Impersonation, fakeSignature, impersonatedTx } from './Impersonation.js';
export { ReservedBlocks } from './ReservedBlocks.js';
export { SnapshotService } from './SnapshotService.js';
export { mineBlocks } from './mineBlocks.js';
export { editState, setBalance, setCode, setNonce, setStorageAt } from './stateEdits.js';
export { type DumpedAccount, type StateDump, decodeDump, dumpState, encodeDump, loadState } from './stateDump.js';
export { type TypedDataInput, signPersonalMessage, signTypedData } from './signing.js';

/** Creates a kernel's dev services (at once: they attach to the chain and its events) and provides them. */
export function installDevServices(ctx: PluginContext): DevServices {
  const { chain, mempool, miner } = ctx.services;
  const reserved = new ReservedBlocks(chain, ctx.events);
  const impersonation = new Impersonation();
  const services: DevServices = {
    reserved,
    impersonation,
    snapshots: new SnapshotService(chain, mempool, miner, reserved, impersonation, ctx.options),
    addresses: new AddressBook(chain, ctx.events),
  };
  ctx.provide(DevTokens.services, () => services);
  return services;
}

/** The kernel's dev services, or undefined when no dev plugin is loaded (the same as `services.dev`). */
export function devServicesOf(from: { readonly services: KernelServices } | KernelServices): DevServices | undefined {
  return ('services' in from ? from.services : from).dev;
}
