import { type ParamParser, invalidParams } from '@ashlar/core';

/**
 * A block number or count as Otterscan sends them: a JSON number (its usual form), a hex
 * quantity or a decimal string, as Erigon's `rpc.BlockNumber`/uint64 parameters accept.
 */
export const otsNumber = (name: string): ParamParser<bigint> => ({
  name,
  optional: false,
  parse(v, index) {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
    if (typeof v === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(v)) return BigInt(v);
    throw invalidParams(`invalid argument ${index} (${name}): expected a non-negative number`);
  },
});
