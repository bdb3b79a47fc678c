import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, type Address } from '@ethereumjs/util';
import type { ChainService } from '../chain/ChainService.js';

/**
 * Changes the head state outside any block (hardhat_setBalance and friends): under the chain
 * lock, on the live state manager, then persisted with the new head state root in one batch.
 * Blocks keep their own state roots; only the head's state moves.
 */
export function editState<T>(chain: ChainService, edit: (sm: MerkleStateManager) => Promise<T>): Promise<T> {
  return chain.exclusive(async () => {
    const sm = chain.vm.stateManager as MerkleStateManager;
    const out = await edit(sm);
    await chain.commitStateEdit();
    return out;
  });
}

async function accountOf(sm: MerkleStateManager, address: Address): Promise<Account> {
  return (await sm.getAccount(address)) ?? new Account();
}

export function setBalance(chain: ChainService, address: Address, balance: bigint): Promise<void> {
  return editState(chain, async (sm) => {
    const acct = await accountOf(sm, address);
    acct.balance = balance;
    await sm.putAccount(address, acct);
  });
}

export function setNonce(chain: ChainService, address: Address, nonce: bigint): Promise<void> {
  return editState(chain, async (sm) => {
    const acct = await accountOf(sm, address);
    acct.nonce = nonce;
    await sm.putAccount(address, acct);
  });
}

export function setCode(chain: ChainService, address: Address, code: Uint8Array): Promise<void> {
  return editState(chain, async (sm) => {
    await sm.putAccount(address, await accountOf(sm, address));
    await sm.putCode(address, code);
  });
}

/** Writes one storage slot (`slot` and `value` 32 bytes; a zero value clears the slot). */
export function setStorageAt(
  chain: ChainService,
  address: Address,
  slot: Uint8Array,
  value: Uint8Array,
): Promise<void> {
  return editState(chain, async (sm) => {
    // putStorage refuses an account that does not exist yet
    await sm.putAccount(address, await accountOf(sm, address));
    await sm.putStorage(address, slot, value);
  });
}
