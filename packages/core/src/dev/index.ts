// Dev-chain services behind the hardhat_/anvil_/evm_ methods: snapshots, reserved blocks,
// impersonation, state edits and dumps, message signing. The `rpc:dev` plugin installs them.
import type { PluginContext } from '../kernel/definePlugin.js';
import type { KernelServices } from '../kernel/services.js';
import { AddressBook } from './AddressBook.js';
import { type DevServices, DevTokens } from './DevServices.js';
import { Impersonation } from './Impersonation.js';
import { ReservedBlocks } from './ReservedBlocks.js';
import { SnapshotService } from './SnapshotService.js';
import { type StateDump, dumpState, loadState } from './stateDump.js';

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

/**
 * The head state as anvil_dumpState dumps it, naming every address the node has seen (the dev
 * services' address book; without them, accounts are keyed by trie key).
 */
export function dumpNodeState(services: KernelServices): Promise<StateDump> {
  return dumpState(services.chain, services.dev?.addresses.names() ?? new Map());
}

/** Writes a dump into the head state (as anvil_loadState); its addresses join the address book, so a later dump names them. */
export async function loadNodeState(services: KernelServices, dump: StateDump): Promise<void> {
  const book = services.dev?.addresses;
  if (book) for (const key of Object.keys(dump.accounts)) if (key.length === 42) book.add(key);
  await loadState(services.chain, dump);
}

/** The kernel's dev services, or undefined when no dev plugin is loaded (the same as `services.dev`). */
export function devServicesOf(from: { readonly services: KernelServices } | KernelServices): DevServices | undefined {
  return ('services' in from ? from.services : from).dev;
}
