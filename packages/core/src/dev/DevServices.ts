// The dev services' shape and token, apart from their installer (dev/index.ts) so the kernel's
// service map can name them without importing the plugin context (no import cycle).
import { type Token, token } from '../di/container.js';
import type { AddressBook } from './AddressBook.js';
import type { Impersonation } from './Impersonation.js';
import type { ReservedBlocks } from './ReservedBlocks.js';
import type { SnapshotService } from './SnapshotService.js';

/** The dev services of one kernel (installed by the `rpc:dev` and `rpc:evm-mining` plugins). */
export interface DevServices {
  /** Blocks mined ahead with hardhat_mine's interval, materialised when read. */
  reserved: ReservedBlocks;
  /** evm_snapshot / evm_revert / hardhat_reset. */
  snapshots: SnapshotService;
  /** Addresses that may send without a key (hardhat_impersonateAccount). */
  impersonation: Impersonation;
  /** Addresses the node has seen, which a state dump can name (anvil_dumpState). */
  addresses: AddressBook;
}

export const DevTokens = {
  services: token<DevServices>('ashlar:dev'),
} satisfies Record<string, Token<unknown>>;
