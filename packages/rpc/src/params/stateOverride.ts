import type { AccountOverride, ParamParser } from '@ashlar/core';
import { Address } from '@ethereumjs/util';
import {
  atField,
  DecodeError,
  decodeAddress,
  decodeData,
  decodeFixedText,
  decodeHash,
  decodeObject,
  decodeQuantity,
  decodeQuantityU64,
  optField,
} from './decode.js';
import { makeParser } from './parser.js';

/** One account's overrides: core's AccountOverride plus geth's `movePrecompileToAddress`. */
export interface AccountOverrideParam extends AccountOverride {
  /** Moves the precompile at this account's address to another address (geth / eth_simulateV1). */
  movePrecompileToAddress?: Address;
}

/**
 * eth_call state override set as core's StateOverrides: lowercase 0x address → overrides.
 * `state` / `stateDiff` map lowercase 0x 32-byte slot keys to 32-byte values; an empty `state`
 * clears the storage. Addresses that differ only in case collapse (the later one wins, as a Go map).
 */
export type StateOverrideParam = Map<string, AccountOverrideParam>;

const toHex = (b: Uint8Array): string => {
  let s = '0x';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
};

function decodeStorageMap(v: unknown): Map<string, Uint8Array> {
  const o = decodeObject(v, 'map[common.Hash]common.Hash');
  const out = new Map<string, Uint8Array>();
  for (const k of Object.keys(o)) {
    const key = atField(k, () => decodeFixedText(k, 32, 'common.Hash'));
    const value = atField(k, () => decodeHash(o[k]));
    out.set(toHex(key), value);
  }
  return out;
}

export function decodeStateOverrides(v: unknown): StateOverrideParam {
  const o = decodeObject(v, 'override.StateOverride');
  const out: StateOverrideParam = new Map();
  for (const k of Object.keys(o)) {
    const address = atField(k, () => new Address(decodeFixedText(k, 20, 'common.Address')));
    const entry = atField(k, (): AccountOverrideParam => {
      const a = decodeObject(o[k], 'override.OverrideAccount');
      const res: AccountOverrideParam = {};
      const balance = optField(a, 'balance', decodeQuantity);
      const nonce = optField(a, 'nonce', decodeQuantityU64);
      const code = optField(a, 'code', decodeData);
      const state = optField(a, 'state', decodeStorageMap);
      const stateDiff = optField(a, 'stateDiff', decodeStorageMap);
      const move = optField(a, 'movePrecompileToAddress', decodeAddress);
      if (state !== undefined && stateDiff !== undefined) {
        throw new DecodeError(`account ${address.toString()} has both 'state' and 'stateDiff'`);
      }
      if (balance !== undefined) res.balance = balance;
      if (nonce !== undefined) res.nonce = nonce;
      if (code !== undefined) res.code = code;
      if (state !== undefined) res.state = state;
      if (stateDiff !== undefined) res.stateDiff = stateDiff;
      if (move !== undefined) res.movePrecompileToAddress = move;
      return res;
    });
    const id = address.toString().toLowerCase();
    out.delete(id);
    out.set(id, entry);
  }
  return out;
}

/** eth_call / eth_estimateGas state override set (address → { balance, nonce, code, state | stateDiff }). */
export const stateOverrides = (name: string): ParamParser<StateOverrideParam> => makeParser(name, decodeStateOverrides);
