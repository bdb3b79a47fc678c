import type { StateManagerInterface } from '@ethereumjs/common';
import { Account, createAddressFromString, setLengthLeft } from '@ethereumjs/util';
import type { StateOverrides } from './types.js';

function slotKey(k: string): Uint8Array {
  const h = k.startsWith('0x') ? k.slice(2) : k;
  return setLengthLeft(Uint8Array.from(Buffer.from(h.length % 2 ? `0${h}` : h, 'hex')), 32);
}

/**
 * Writes eth_call-style state overrides (balance, nonce, code, full `state` or `stateDiff`) into
 * a state manager; callers run it inside a checkpoint they revert. An override that gives no
 * balance or nonce leaves the account record alone (no empty account appears).
 */
export async function applyStateOverrides(
  sm: StateManagerInterface,
  overrides: StateOverrides | undefined,
): Promise<void> {
  if (!overrides) return;
  for (const [addr, o] of overrides) {
    const address = createAddressFromString(addr);
    if (o.balance !== undefined || o.nonce !== undefined) {
      const acct = (await sm.getAccount(address)) ?? new Account();
      if (o.balance !== undefined) acct.balance = o.balance;
      if (o.nonce !== undefined) acct.nonce = o.nonce;
      await sm.putAccount(address, acct);
    }
    if (o.code !== undefined) await sm.putCode(address, o.code);
    if (o.state) {
      await sm.clearStorage(address);
      for (const [k, v] of o.state) await sm.putStorage(address, slotKey(k), v);
    }
    if (o.stateDiff) for (const [k, v] of o.stateDiff) await sm.putStorage(address, slotKey(k), v);
  }
}
