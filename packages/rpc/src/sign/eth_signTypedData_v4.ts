import { AshlarError, ErrorCodes, type TypedDataInput, defineRpcMethod, signTypedData, toData } from '@ashlar/core';
import { DecodeError, address, makeParser } from '../params/index.js';
import { signerKey } from './eth_sign.js';

/** EIP-712 typed data as an object, or as the JSON string MetaMask-style clients send. */
const typedData = makeParser('typedData', (v): TypedDataInput => {
  let value = v;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new DecodeError('not JSON typed data');
    }
  }
  const o = value as Partial<TypedDataInput> | null;
  if (typeof o !== 'object' || o === null) throw new DecodeError('typed data must be an object');
  if (typeof o.types !== 'object' || o.types === null) throw new DecodeError('missing "types"');
  if (typeof o.primaryType !== 'string') throw new DecodeError('missing "primaryType"');
  if (typeof o.message !== 'object' || o.message === null) throw new DecodeError('missing "message"');
  return o as TypedDataInput;
});

/** Signs EIP-712 typed data (v4: arrays and nested structs) with a dev key; 65 bytes, v 27/28. */
export const eth_signTypedData_v4 = defineRpcMethod({
  name: 'eth_signTypedData_v4',
  params: [address('address'), typedData],
  handler: (ctx, [addr, typed]) => {
    const key = signerKey(ctx.services, addr);
    try {
      return toData(signTypedData(typed, key));
    } catch (e) {
      // ox names the field or type it could not encode
      const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
      throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid argument 1 (typedData): ${why}`);
    }
  },
});
