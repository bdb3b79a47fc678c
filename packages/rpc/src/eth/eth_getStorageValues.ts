import { type ParamParser, defineRpcMethod, toData } from '@ashlar/core';
import { type Address, setLengthLeft } from '@ethereumjs/util';
import {
  DecodeError,
  LATEST,
  atField,
  blockTagOrHash,
  decodeAddress,
  decodeArrayOf,
  decodeStorageKey,
  makeParser,
  typeError,
  withDefault,
} from '../params/index.js';
import { readState, toBlockRef } from '../shared/state.js';

/** geth caps the slots of one request. */
const MAX_SLOTS = 1024;

type Request = { address: Address; key: string; slots: Uint8Array[] }[];

function decodeRequest(v: unknown): Request {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw typeError(v, 'map[common.Address][]common.Hash');
  const out: Request = [];
  let total = 0;
  for (const [k, slots] of Object.entries(v)) {
    const address = atField(k, () => decodeAddress(k));
    const keys = atField(k, () => decodeArrayOf(slots, decodeStorageKey, '[]common.Hash'));
    total += keys.length;
    out.push({ address, key: k.toLowerCase(), slots: keys });
  }
  if (out.length === 0) throw new DecodeError('empty request');
  if (total > MAX_SLOTS) throw new DecodeError(`too many slots (max ${MAX_SLOTS})`);
  return out;
}

const request = (name: string): ParamParser<Request> => makeParser(name, decodeRequest);

/** Many storage slots of many accounts at one block: address → values in the order asked. */
export const eth_getStorageValues = defineRpcMethod({
  name: 'eth_getStorageValues',
  params: [request('requests'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: (ctx, [req, block]) =>
    readState(ctx.services, toBlockRef(block), async (sm) => {
      const out: Record<string, string[]> = {};
      for (const { address, key, slots } of req) {
        const values: string[] = [];
        for (const s of slots)
          values.push(toData(setLengthLeft(await sm.getStorage(address, setLengthLeft(s, 32)), 32)));
        out[key] = values;
      }
      return out;
    }),
});
