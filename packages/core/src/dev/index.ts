// Dev-chain services behind the hardhat_/anvil_/evm_ methods: snapshots, reserved blocks,
// impersonation, state edits and dumps, message signing. The `rpc:dev` plugin installs them.
import type { ChainService } from '../chain/ChainService.js';
import { type Token, token } from '../di/container.js';
import type { Kernel } from '../kernel/Kernel.js';
import type { PluginContext } from '../kernel/definePlugin.js';
import { AddressBook } from './AddressBook.js';
import { Impersonation } from './Impersonation.js';
import { ReservedBlocks } from './ReservedBlocks.js';
import { SnapshotService } from './SnapshotService.js';

export { AddressBook } from './AddressBook.js';
export { Impersonation, fakeSignature, impersonatedTx } from './Impersonation.js';
export { ReservedBlocks } from './ReservedBlocks.js';
export { SnapshotService } from './SnapshotService.js';
export { mineBlocks } from './mineBlocks.js';
export { editState, setBalance, setCode, setNonce, setStorageAt } from './stateEdits.js';
export { type DumpedAccount, type StateDump, decodeDump, dumpState, encodeDump, loadState } from './stateDump.js';
export { type TypedDataInput, signPersonalMessage, signTypedData } from './signing.js';

/** The dev services of one kernel. */
export interface DevServices {
  reserved: ReservedBlocks;
  snapshots: SnapshotService;
  impersonation: Impersonation;
  addresses: AddressBook;
}

export const DevTokens = {
  services: token<DevServices>('ashlar:dev'),
} satisfies Record<string, Token<unknown>>;

/** Creates a kernel's dev services (at once: they attach to the chain and its events) and provides them. */
export function installDevServices(ctx: PluginContext): DevServices {
  const k = ctx.kernel;
  const chain: ChainService = k.chain;
  const reserved = new ReservedBlocks(chain, ctx.events);
  const impersonation = new Impersonation();
  const services: DevServices = {
    reserved,
    impersonation,
    snapshots: new SnapshotService(chain, k.mempool, k.miner, reserved, impersonation, ctx.options),
    addresses: new AddressBook(chain, ctx.events),
  };
  ctx.provide(DevTokens.services, () => services);
  return services;
}

/** The kernel's dev services, or undefined when no dev plugin is loaded. */
export function devServicesOf(kernel: Kernel): DevServices | undefined {
  return kernel.container.isRegistered(DevTokens.services, true) ? kernel.resolve(DevTokens.services) : undefined;
}
