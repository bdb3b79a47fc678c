import type { CallRequest, ParamParser } from '@ashlar/core';
import type { Address } from '@ethereumjs/util';
import {
  atField,
  DecodeError,
  decodeAddress,
  decodeArrayOf,
  decodeData,
  decodeHash,
  decodeObject,
  decodeQuantity,
  decodeQuantityNumber,
  decodeQuantityU64,
  optField,
} from './decode.js';
import { makeParser } from './parser.js';

export type AccessListEntry = NonNullable<CallRequest['accessList']>[number];

/** A signed EIP-7702 authorization tuple as sent in a transaction request. */
export type AuthorizationEntry = NonNullable<CallRequest['authorizationList']>[number];

/**
 * Transaction request object (geth TransactionArgs) for eth_call, eth_estimateGas,
 * eth_sendTransaction, eth_signTransaction — core's CallRequest, with these guarantees:
 * absent and JSON-null fields are both left out (`to` is never null: no `to` = creation),
 * `data` holds `input` (or `data` when only that is given; equal when both are), and
 * `type` is the requested EIP-2718 type (geth ignores it).
 */
export interface TransactionRequest extends CallRequest {
  to?: Address;
}

function decodeArray<T>(v: unknown, goType: string, item: (x: unknown) => T): T[] {
  return decodeArrayOf(v, item, goType);
}

export function decodeAccessList(v: unknown): AccessListEntry[] {
  return decodeArray(v, 'types.AccessList', (item) => {
    const o = decodeObject(item, 'types.AccessTuple');
    const address = requiredField(o, 'address', 'AccessTuple', decodeAddress);
    const keys = optField(o, 'storageKeys', (k) => decodeArray(k, '[]common.Hash', decodeHash));
    return { address, storageKeys: keys ?? [] };
  });
}

function requiredField<T>(o: Record<string, unknown>, key: string, type: string, dec: (v: unknown) => T): T {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || v === null) throw new DecodeError(`missing required field '${key}' for ${type}`);
  return atField(key, () => dec(v));
}

export function decodeAuthorizationList(v: unknown): AuthorizationEntry[] {
  return decodeArray(v, '[]types.SetCodeAuthorization', (item) => {
    const o = decodeObject(item, 'types.SetCodeAuthorization');
    const T = 'SetCodeAuthorization';
    const yParity = requiredField(o, 'yParity', T, decodeQuantityU64);
    if (yParity > 255n) throw new DecodeError('yParity out of range', ['yParity']);
    return {
      chainId: requiredField(o, 'chainId', T, decodeQuantity),
      address: requiredField(o, 'address', T, decodeAddress),
      nonce: requiredField(o, 'nonce', T, decodeQuantityU64),
      yParity,
      r: requiredField(o, 'r', T, decodeQuantity),
      s: requiredField(o, 's', T, decodeQuantity),
    };
  });
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** geth TransactionArgs; unknown keys are ignored. */
export function decodeTransactionRequest(v: unknown): TransactionRequest {
  const o = decodeObject(v, 'ethapi.TransactionArgs');
  const out: TransactionRequest = {};
  const set = <K extends keyof TransactionRequest>(key: K, value: TransactionRequest[K] | undefined) => {
    if (value !== undefined) out[key] = value;
  };
  set('from', optField(o, 'from', decodeAddress));
  set('to', optField(o, 'to', decodeAddress));
  set('gas', optField(o, 'gas', decodeQuantityU64));
  set('gasPrice', optField(o, 'gasPrice', decodeQuantity));
  set('maxFeePerGas', optField(o, 'maxFeePerGas', decodeQuantity));
  set('maxPriorityFeePerGas', optField(o, 'maxPriorityFeePerGas', decodeQuantity));
  set('value', optField(o, 'value', decodeQuantity));
  set('nonce', optField(o, 'nonce', decodeQuantityU64));
  set('type', optField(o, 'type', decodeQuantityNumber));
  set('chainId', optField(o, 'chainId', decodeQuantity));
  set('accessList', optField(o, 'accessList', decodeAccessList));
  set('authorizationList', optField(o, 'authorizationList', decodeAuthorizationList));
  set(
    'blobVersionedHashes',
    optField(o, 'blobVersionedHashes', (x) => decodeArray(x, '[]common.Hash', decodeHash)),
  );
  set('maxFeePerBlobGas', optField(o, 'maxFeePerBlobGas', decodeQuantity));

  const input = optField(o, 'input', decodeData);
  const data = optField(o, 'data', decodeData);
  if (input !== undefined && data !== undefined && !equalBytes(input, data)) {
    throw new DecodeError(
      'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
    );
  }
  set('data', input ?? data);

  if (out.gasPrice !== undefined && (out.maxFeePerGas !== undefined || out.maxPriorityFeePerGas !== undefined)) {
    throw new DecodeError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  }
  if (
    out.maxFeePerGas !== undefined &&
    out.maxPriorityFeePerGas !== undefined &&
    out.maxFeePerGas < out.maxPriorityFeePerGas
  ) {
    throw new DecodeError(`maxFeePerGas (${out.maxFeePerGas}) < maxPriorityFeePerGas (${out.maxPriorityFeePerGas})`);
  }
  return out;
}

/** Transaction request object (call / estimate / send / sign). */
export const transactionRequest = (name: string): ParamParser<TransactionRequest> =>
  makeParser(name, decodeTransactionRequest);
