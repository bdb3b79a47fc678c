// Parameters of the dev methods (evm_, hardhat_, anvil_), read as Hardhat and Anvil read them:
// an integer may be a JSON number, a hex quantity (leading zeros allowed) or a decimal string,
// the union of what the two accept, since each method serves both spellings
// (docs/param-shapes.md).
import type { ParamParser } from '@ashlar/core';
import { DecodeError, atField, decodeLooseInteger, decodeObject, jsonKind, makeParser } from '../params/index.js';

/** A non-negative integer (≤ 256 bits) as a JSON number, a hex quantity or a decimal string. */
export function decodeQuantityOrNumber(v: unknown): bigint {
  return decodeLooseInteger(v, 256);
}

/** Block timestamps are uint64 (yellow paper, geth): a later time can never be mined. */
export const MAX_TIMESTAMP = 2n ** 64n - 1n;

export const quantityOrNumber = (name: string): ParamParser<bigint> => makeParser(name, decodeQuantityOrNumber);

/** A value that must not be negative (a balance, a nonce): "-0x…" or -5 get an error saying so. */
export const nonNegativeQuantity = (name: string): ParamParser<bigint> =>
  makeParser(name, (v) => {
    if ((typeof v === 'string' && v.startsWith('-')) || (typeof v === 'number' && v < 0)) {
      throw new DecodeError(`${name} must not be negative, got ${v}`);
    }
    return decodeQuantityOrNumber(v);
  });

/** A storage slot (hardhat_setStorageAt/anvil_setStorageAt) as a U256 integer → its 32-byte key. */
export const storageSlot = (name: string): ParamParser<Uint8Array> =>
  makeParser(name, (v) => {
    const n = decodeQuantityOrNumber(v);
    const out = new Uint8Array(32);
    let rest = n;
    for (let i = 31; i >= 0 && rest > 0n; i--) {
      out[i] = Number(rest & 0xffn);
      rest >>= 8n;
    }
    return out;
  });

/** evm_mine's argument, as Hardhat and Anvil take it: a timestamp, or `{ timestamp?, blocks? }` (Anvil, Ganache). */
export interface MineOptions {
  timestamp?: bigint;
  blocks?: bigint;
}

function decodeMineOptions(v: unknown): MineOptions {
  if (typeof v === 'number' || typeof v === 'string') return { timestamp: decodeQuantityOrNumber(v) };
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new DecodeError(`expected a timestamp or { timestamp, blocks }, got ${jsonKind(v)}`);
  }
  const o = decodeObject(v, 'MineOptions');
  const out: MineOptions = {};
  if (o.timestamp != null) out.timestamp = atField('timestamp', () => decodeQuantityOrNumber(o.timestamp));
  if (o.blocks != null) out.blocks = atField('blocks', () => decodeQuantityOrNumber(o.blocks));
  return out;
}

export const mineOptions = (name: string): ParamParser<MineOptions> => makeParser(name, decodeMineOptions);
