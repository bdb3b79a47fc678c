import type { Account, Address } from '@ethereumjs/util';

/**
 * The account the state manager's cache holds for `address`, without a promise: its
 * `accountNow` (ChainStateManager's; a copy, as getAccount's) where it has one. null: known not
 * to exist; undefined: not cached, or another state manager (then await getAccount). The lean
 * transaction path reads the sender, the recipient and the coinbase five times per value
 * transfer, each an async getAccount's promise and an await for an account in memory.
 */
export function cachedAccount(state: unknown, address: Address): Account | null | undefined {
  const s = state as { accountNow?: (address: Address) => Account | null | undefined };
  return typeof s.accountNow === 'function' ? s.accountNow(address) : undefined;
}
