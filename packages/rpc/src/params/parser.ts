import { invalidParams, type ParamParser } from '@ashlar/core';
import type { Address } from '@ethereumjs/util';
import {
  DecodeError,
  decodeAddress,
  decodeArrayOf,
  decodeBoolean,
  decodeData,
  decodeFixedData,
  decodeFloat,
  decodeHexOrDecimal64,
  decodeHash,
  decodeQuantity,
  decodeQuantityNumber,
  decodeQuantityU64,
  decodeStorageKey,
  decodeString,
} from './decode.js';

/** `invalid argument <index> (<name>): <message>` — geth's wording plus the parameter name. */
export function argumentError(index: number, name: string, message: string) {
  return invalidParams(`invalid argument ${index} (${name}): ${message}`);
}

/**
 * Builds a required ParamParser from a decoder. DecodeErrors become -32602 errors naming the
 * parameter (and the field path inside it); anything else propagates unchanged.
 */
export function makeParser<T>(name: string, decode: (value: unknown) => T): ParamParser<T> {
  return {
    name,
    optional: false,
    parse(value: unknown, index: number): T {
      if (value === undefined) throw invalidParams(`missing value for required argument ${index} (${name})`);
      try {
        return decode(value);
      } catch (e) {
        if (e instanceof DecodeError) throw argumentError(index, name, e.describe());
        throw e;
      }
    },
  };
}

/** Makes a parser optional: an omitted parameter or JSON null yields `undefined`. */
export function optional<T>(parser: ParamParser<T>): ParamParser<T | undefined> {
  return {
    name: parser.name,
    optional: true,
    parse: (value, index) => (value === undefined || value === null ? undefined : parser.parse(value, index)),
  };
}

/** Makes a parser optional with a fallback: an omitted parameter or JSON null yields `fallback`. */
export function withDefault<T>(parser: ParamParser<T>, fallback: T): ParamParser<T> {
  return {
    name: parser.name,
    optional: true,
    parse: (value, index) => (value === undefined || value === null ? fallback : parser.parse(value, index)),
  };
}

/** QUANTITY up to 256 bits → bigint (leading zeros, `0x` and > 256 bits rejected, as geth). */
export const quantity = (name: string): ParamParser<bigint> => makeParser(name, decodeQuantity);

/** QUANTITY up to 64 bits → bigint (gas, nonce). */
export const quantityU64 = (name: string): ParamParser<bigint> => makeParser(name, decodeQuantityU64);

/** QUANTITY that fits Number.MAX_SAFE_INTEGER → number (indexes, counts). */
export const quantityNumber = (name: string): ParamParser<number> => makeParser(name, decodeQuantityNumber);

/** DATA of any even length → bytes. */
export const data = (name: string): ParamParser<Uint8Array> => makeParser(name, decodeData);

/** DATA of exactly `length` bytes → bytes. */
export const fixedData = (name: string, length: number, typeName?: string): ParamParser<Uint8Array> =>
  makeParser(name, (v) => decodeFixedData(v, length, typeName));

/** 20-byte address → @ethereumjs/util Address. */
export const address = (name: string): ParamParser<Address> => makeParser(name, decodeAddress);

/** 32-byte hash → bytes. */
export const hash = (name: string): ParamParser<Uint8Array> => makeParser(name, decodeHash);

/** Storage slot (eth_getStorageAt): ≤ 32 bytes, left-padded to 32; longer → -32602. */
export const storageKey = (name: string): ParamParser<Uint8Array> => makeParser(name, decodeStorageKey);

export const boolean = (name: string): ParamParser<boolean> => makeParser(name, decodeBoolean);

export const string = (name: string): ParamParser<string> => makeParser(name, decodeString);

/** A JSON array decoded item by item, e.g. `arrayOf("storageKeys", decodeStorageKey)` for eth_getProof. */
export const arrayOf = <T>(name: string, item: (v: unknown) => T, goType?: string): ParamParser<T[]> =>
  makeParser(name, (v) => decodeArrayOf(v, item, goType));

/** geth math.HexOrDecimal64 → bigint (eth_feeHistory blockCount: `"0x5"`, `"5"` or `5`). */
export const hexOrDecimal64 = (name: string): ParamParser<bigint> => makeParser(name, decodeHexOrDecimal64);

/** A finite JSON number (eth_feeHistory reward percentiles: `arrayOf(name, decodeFloat)`). */
export const float = (name: string): ParamParser<number> => makeParser(name, decodeFloat);
