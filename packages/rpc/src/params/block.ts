import type { BlockTag as BlockTagName, ParamParser } from '@ashlar/core';
import {
  atField,
  DecodeError,
  decodeBoolean,
  decodeFixedText,
  decodeHash,
  parseHexUint64,
  typeError,
} from './decode.js';
import { makeParser } from './parser.js';

export type { BlockTagName };

/** A block selector by tag or number; assignable to core's `BlockRef`. */
export type BlockTagParam = { kind: 'tag'; tag: BlockTagName } | { kind: 'number'; number: bigint };

/** EIP-1898: a block selector that may also name a block by hash; assignable to core's `BlockRef`. */
export type BlockTagOrHashParam = BlockTagParam | { kind: 'hash'; hash: Uint8Array; requireCanonical: boolean };

const TAGS: ReadonlySet<string> = new Set<BlockTagName>(['latest', 'earliest', 'pending', 'safe', 'finalized']);
const MAX_INT64 = (1n << 63n) - 1n;

/** Frozen `latest` tag, handy as a default. */
export const LATEST: BlockTagParam = Object.freeze({
  kind: 'tag',
  tag: 'latest',
} as const);

/** geth rpc.BlockNumber: a tag or a 64-bit QUANTITY (≤ int64 max). */
export function decodeBlockTag(v: unknown): BlockTagParam {
  // (geth feeds non-strings to the hex decoder and answers "hex string without 0x prefix"; a type error is clearer)
  if (typeof v !== 'string') throw typeError(v, 'rpc.BlockNumber');
  if (TAGS.has(v)) return { kind: 'tag', tag: v as BlockTagName };
  const n = parseHexUint64(v);
  if (n > MAX_INT64) throw new DecodeError('block number larger than int64');
  return { kind: 'number', number: n };
}

/**
 * geth rpc.BlockNumberOrHash: a tag, a QUANTITY, a bare 32-byte hash string, or an object
 * `{ blockNumber }` / `{ blockHash, requireCanonical? }` (EIP-1898).
 */
export function decodeBlockTagOrHash(v: unknown): BlockTagOrHashParam {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const rawNumber = Object.hasOwn(o, 'blockNumber') ? o.blockNumber : undefined;
    const rawHash = Object.hasOwn(o, 'blockHash') ? o.blockHash : undefined;
    const rawCanonical = Object.hasOwn(o, 'requireCanonical') ? o.requireCanonical : undefined;
    const number = rawNumber == null ? undefined : atField('blockNumber', () => decodeBlockTag(rawNumber));
    const hash = rawHash == null ? undefined : atField('blockHash', () => decodeHash(rawHash));
    const requireCanonical =
      rawCanonical == null ? false : atField('requireCanonical', () => decodeBoolean(rawCanonical));
    if (number !== undefined && hash !== undefined) {
      throw new DecodeError('cannot specify both BlockHash and BlockNumber, choose one or the other');
    }
    if (hash !== undefined) return { kind: 'hash', hash, requireCanonical };
    if (number !== undefined) return number;
    throw new DecodeError('invalid arguments; neither block nor hash specified');
  }
  if (typeof v !== 'string') throw typeError(v, 'string');
  if (TAGS.has(v)) return { kind: 'tag', tag: v as BlockTagName };
  if (v.length === 66)
    return {
      kind: 'hash',
      hash: decodeFixedText(v, 32, 'common.Hash'),
      requireCanonical: false,
    };
  const n = parseHexUint64(v);
  if (n > MAX_INT64) throw new DecodeError('blocknumber too high');
  return { kind: 'number', number: n };
}

/** Block number or tag (`latest|earliest|pending|safe|finalized`). */
export const blockTag = (name: string): ParamParser<BlockTagParam> => makeParser(name, decodeBlockTag);

/** Block number, tag, hash, or EIP-1898 object. */
export const blockTagOrHash = (name: string): ParamParser<BlockTagOrHashParam> =>
  makeParser(name, decodeBlockTagOrHash);
