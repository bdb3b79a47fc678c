import { type Account, type Address, KECCAK256_NULL } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

/**
 * Lets `sender` send although it has code, skipping EIP-3607 as geth does for calls and as
 * Hardhat and Anvil do for every transaction (an impersonated contract, an account given code by
 * hardhat_setCode). @ethereumjs/vm always makes the check, on the `codeHash` of the sender's
 * account as runTx first reads it: that one read of that one object answers the empty-code hash.
 * The object is the real account (runTx writes it back with the real code hash, nonce and
 * balance), and the code stays in place and runs if the transaction reaches it.
 *
 * Call right before runTx, and the returned `restore` right after it whatever happened (a
 * rejection before the read must not leave the hook in place). `read`: the sender's account as
 * the caller just read it from this state (saves reading it again).
 */
export async function allowContractSender(
  vm: VM,
  sender: Address,
  read?: { account: Account | undefined },
): Promise<{ restore: () => void }> {
  const sm = vm.stateManager;
  const account = read !== undefined ? read.account : await sm.getAccount(sender);
  if (account === undefined || !account.isContract()) return { restore: () => undefined };
  const getAccount = sm.getAccount;
  const restore = () => {
    sm.getAccount = getAccount;
  };
  sm.getAccount = async (address: Address) => {
    const acct = await getAccount.call(sm, address);
    if (acct === undefined || !address.equals(sender)) return acct;
    restore();
    hideCodeOnce(acct);
    return acct;
  };
  return { restore };
}

/** The next read of `account.codeHash` answers the empty-code hash; later reads the real one. */
function hideCodeOnce(account: Account): void {
  Object.defineProperty(account, 'codeHash', {
    configurable: true,
    get(this: Account) {
      delete (this as { codeHash?: Uint8Array }).codeHash;
      return KECCAK256_NULL;
    },
  });
}
