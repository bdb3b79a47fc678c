// Erigon's rpc.BlockNumber and rpc.BlockNumberOrHash, which Otterscan's ots_/erigon_ calls rely
// on: besides geth's tags and hex, a JSON number or a decimal string names a block.
import type { BlockTag as BlockTagName, ParamParser } from '@ashlar/core';
import type { BlockTagOrHashParam, BlockTagParam } from './block.js';
import { atField, DecodeError, decodeBoolean, decodeFixedText, decodeHash, jsonKind } from './decode.js';
import { decodeLooseInteger } from './loose.js';
import { makeParser } from './parser.js';

const TAGS: ReadonlySet<string> = new Set<BlockTagName>(['latest', 'earliest', 'pending', 'safe', 'finalized']);
const MAX_INT64 = (1n << 63n) - 1n;

/**
 * Erigon's rpc.BlockNumber: a tag, a JSON number, a decimal string, or a hex quantity, at most
 * int64. Hex with leading zeros (`0x05`) is read too: Erigon's hexutil refuses it, Anvil's ots_
 * methods take it, and refusing it would only fail clients written against Anvil.
 */
export function decodeErigonBlockNumber(v: unknown): BlockTagParam {
  if (typeof v === 'string' && TAGS.has(v)) return { kind: 'tag', tag: v as BlockTagName };
  if (typeof v !== 'number' && typeof v !== 'string') {
    throw new DecodeError(`expected a block number or tag, got ${jsonKind(v)}`);
  }
  if (typeof v === 'string' && v.length === 2 && /^0[xX]$/.test(v)) {
    throw new DecodeError('invalid block number "0x": no digits');
  }
  let n: bigint;
  try {
    n = decodeLooseInteger(v, 64);
  } catch (e) {
    if (e instanceof DecodeError) throw new DecodeError(`invalid block number or tag: ${e.message}`);
    throw e;
  }
  if (n > MAX_INT64) throw new DecodeError('block number larger than int64');
  return { kind: 'number', number: n };
}

/**
 * Erigon's rpc.BlockNumberOrHash: a block number or tag as above, a 32-byte hash, or the
 * EIP-1898 object `{ blockNumber }` / `{ blockHash, requireCanonical? }`.
 */
export function decodeErigonBlockOrHash(v: unknown): BlockTagOrHashParam {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const rawNumber = Object.hasOwn(o, 'blockNumber') ? o.blockNumber : undefined;
    const rawHash = Object.hasOwn(o, 'blockHash') ? o.blockHash : undefined;
    const rawCanonical = Object.hasOwn(o, 'requireCanonical') ? o.requireCanonical : undefined;
    if (rawNumber != null && rawHash != null) {
      throw new DecodeError('cannot specify both BlockHash and BlockNumber, choose one or the other');
    }
    if (rawHash != null) {
      const hash = atField('blockHash', () => decodeHash(rawHash));
      const requireCanonical =
        rawCanonical == null ? false : atField('requireCanonical', () => decodeBoolean(rawCanonical));
      return { kind: 'hash', hash, requireCanonical };
    }
    if (rawNumber != null) return atField('blockNumber', () => decodeErigonBlockNumber(rawNumber));
    throw new DecodeError('invalid arguments; neither block nor hash specified');
  }
  if (typeof v === 'string' && v.length === 66 && /^0[xX]/.test(v)) {
    return { kind: 'hash', hash: decodeFixedText(v, 32, 'common.Hash'), requireCanonical: false };
  }
  return decodeErigonBlockNumber(v);
}

/** Block number or tag, read as Erigon reads it. */
export const erigonBlockNumber = (name: string): ParamParser<BlockTagParam> =>
  makeParser(name, decodeErigonBlockNumber);

/** Block number, tag, hash or EIP-1898 object, read as Erigon reads it. */
export const erigonBlockOrHash = (name: string): ParamParser<BlockTagOrHashParam> =>
  makeParser(name, decodeErigonBlockOrHash);
