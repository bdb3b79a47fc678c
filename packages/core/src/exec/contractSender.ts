import type { Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

/** A 7702 delegation designator: the only code @ethereumjs accepts on a transaction's sender. */
const DELEGATION_PREFIX = Uint8Array.of(0xef, 0x01, 0x00);

function isDelegation(code: Uint8Array): boolean {
  return code.length === 23 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00;
}

/**
 * Lets `sender` send although it has code, skipping EIP-3607 as geth does for calls and as
 * Hardhat and Anvil do for every transaction (an impersonated contract, an account given code by
 * hardhat_setCode). @ethereumjs/vm always makes the check and accepts only 7702-delegated
 * senders: its one code read of the sender in that check is answered with a delegation
 * designator. Only that read: the real code stays and runs if the transaction reaches it.
 *
 * Needs EIP-7702 (Prague and later): before it, @ethereumjs rejects any sender with code and this
 * returns false (the caller then refuses the transaction). Returns a function that undoes the
 * hook, to call after runTx whatever happened (a rejection before the check must not leave it).
 */
export async function allowContractSender(vm: VM, sender: Address): Promise<{ allowed: boolean; restore: () => void }> {
  const none = { allowed: true, restore: () => undefined };
  const sm = vm.stateManager;
  const account = await sm.getAccount(sender);
  if (account === undefined || !account.isContract()) return none;
  const code = await sm.getCode(sender);
  if (code.length === 0 || isDelegation(code)) return none;
  if (!vm.common.isActivatedEIP(7702)) return { allowed: false, restore: () => undefined };
  const getCode = sm.getCode;
  const restore = () => {
    sm.getCode = getCode;
  };
  sm.getCode = async (address: Address) => {
    if (!address.equals(sender)) return getCode.call(sm, address);
    restore();
    const designator = new Uint8Array(23);
    designator.set(DELEGATION_PREFIX);
    return designator;
  };
  return { allowed: true, restore };
}

/** Whether `sender` has code other than a 7702 delegation (a contract, or code set by a dev method). */
export async function hasNonDelegationCode(vm: VM, sender: Address): Promise<boolean> {
  const account = await vm.stateManager.getAccount(sender);
  if (account === undefined || !account.isContract()) return false;
  const code = await vm.stateManager.getCode(sender);
  return code.length > 0 && !isDelegation(code);
}
