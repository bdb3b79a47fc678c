import type { ParamParser } from '@ashlar/core';
import { Address } from '@ethereumjs/util';
import { type BlockTagParam, decodeBlockTag } from './block.js';
import { atField, DecodeError, decodeHash, decodeLooseBytes, decodeObject, optField, typeError } from './decode.js';
import { makeParser } from './parser.js';

/** Most topic positions in a filter (geth maxTopics). */
export const MAX_TOPICS = 4;
/** Most alternatives in one topic position (geth maxSubTopics). */
export const MAX_SUB_TOPICS = 1000;
/** Most addresses in one filter (geth maxAddresses). */
export const MAX_ADDRESSES = 1000;

/**
 * Log filter (eth_getLogs / eth_newFilter). `blockHash` excludes `fromBlock`/`toBlock`;
 * absent bounds are left undefined (the handler applies its defaults and range checks).
 */
export interface LogFilter {
  blockHash?: Uint8Array;
  fromBlock?: BlockTagParam;
  toBlock?: BlockTagParam;
  /** Empty: any address. */
  addresses: Address[];
  /**
   * One entry per position: `null` matches anything, otherwise any of the listed topics.
   * Positions past the end match anything.
   */
  topics: (Uint8Array[] | null)[];
}

function decodeFilterAddress(s: string): Address {
  const b = decodeLooseBytes(s);
  if (b.length !== 20)
    throw new DecodeError(`hex has invalid length ${b.length} after decoding; expected 20 for address`);
  return new Address(b);
}

function decodeTopic(s: string): Uint8Array {
  const b = decodeLooseBytes(s);
  if (b.length !== 32)
    throw new DecodeError(`hex has invalid length ${b.length} after decoding; expected 32 for topic`);
  return b;
}

function decodeAddresses(v: unknown): Address[] {
  if (typeof v === 'string') {
    try {
      return [decodeFilterAddress(v)];
    } catch (e) {
      if (e instanceof DecodeError) throw new DecodeError(`invalid address: ${e.message}`);
      throw e;
    }
  }
  if (!Array.isArray(v)) throw new DecodeError('invalid addresses in query');
  if (v.length > MAX_ADDRESSES) throw new DecodeError('exceed max addresses');
  return v.map((a, i) => {
    if (typeof a !== 'string') throw new DecodeError(`non-string address at index ${i}`);
    try {
      return decodeFilterAddress(a);
    } catch (e) {
      if (e instanceof DecodeError) throw new DecodeError(`invalid address at index ${i}: ${e.message}`);
      throw e;
    }
  });
}

function decodeTopics(v: unknown): (Uint8Array[] | null)[] {
  if (!Array.isArray(v)) throw typeError(v, '[]interface {}');
  if (v.length > MAX_TOPICS) throw new DecodeError('exceed max topics');
  return v.map((t, i) =>
    atField(i, (): Uint8Array[] | null => {
      if (t === null) return null;
      if (typeof t === 'string') return [decodeTopic(t)];
      if (!Array.isArray(t)) throw new DecodeError('invalid topic(s)');
      if (t.length > MAX_SUB_TOPICS) throw new DecodeError('exceed max topics');
      const alts: Uint8Array[] = [];
      for (const sub of t) {
        // geth: a null alternative makes the whole position a wildcard
        if (sub === null) return null;
        if (typeof sub !== 'string') throw new DecodeError('invalid topic(s)');
        alts.push(decodeTopic(sub));
      }
      // an empty alternatives list is a wildcard as well
      return alts.length === 0 ? null : alts;
    }),
  );
}

/** geth FilterCriteria.UnmarshalJSON; unknown keys are ignored. */
export function decodeLogFilter(v: unknown): LogFilter {
  const o = decodeObject(v, 'filters.FilterCriteria');
  const blockHash = optField(o, 'blockHash', decodeHash);
  const fromBlock = optField(o, 'fromBlock', decodeBlockTag);
  const toBlock = optField(o, 'toBlock', decodeBlockTag);
  const out: LogFilter = { addresses: [], topics: [] };
  if (blockHash !== undefined) {
    if (fromBlock !== undefined || toBlock !== undefined) {
      throw new DecodeError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
    }
    out.blockHash = blockHash;
  } else {
    if (fromBlock !== undefined) out.fromBlock = fromBlock;
    if (toBlock !== undefined) out.toBlock = toBlock;
  }
  out.addresses = optField(o, 'address', decodeAddresses) ?? [];
  out.topics = optField(o, 'topics', decodeTopics) ?? [];
  return out;
}

/** eth_getLogs / eth_newFilter filter object. */
export const logFilter = (name: string): ParamParser<LogFilter> => makeParser(name, decodeLogFilter);
