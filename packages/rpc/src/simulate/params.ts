import type { ParamParser } from '@ashlar/core';
import type { Address } from '@ethereumjs/util';
import {
  type StateOverrideParam,
  type TransactionRequest,
  decodeAddress,
  decodeArrayOf,
  decodeBoolean,
  decodeHash,
  decodeObject,
  decodeQuantity,
  decodeQuantityU64,
  decodeStateOverrides,
  decodeTransactionRequest,
  makeParser,
  optField,
} from '../params/index.js';

/** What a simulated block may set instead of the defaults derived from its parent. */
export interface BlockOverrides {
  number?: bigint;
  time?: bigint;
  gasLimit?: bigint;
  feeRecipient?: Address;
  prevRandao?: Uint8Array;
  baseFeePerGas?: bigint;
  blobBaseFee?: bigint;
}

export interface SimBlock {
  overrides: BlockOverrides;
  stateOverrides?: StateOverrideParam;
  calls: TransactionRequest[];
}

export interface SimOptions {
  blocks: SimBlock[];
  traceTransfers: boolean;
  validation: boolean;
  returnFullTransactions: boolean;
}

export function decodeBlockOverrides(v: unknown): BlockOverrides {
  const o = decodeObject(v, 'override.BlockOverrides');
  const out: BlockOverrides = {};
  const number = optField(o, 'number', decodeQuantity);
  const time = optField(o, 'time', decodeQuantityU64);
  const gasLimit = optField(o, 'gasLimit', decodeQuantityU64);
  const feeRecipient = optField(o, 'feeRecipient', decodeAddress);
  const prevRandao = optField(o, 'prevRandao', decodeHash);
  const baseFeePerGas = optField(o, 'baseFeePerGas', decodeQuantity);
  const blobBaseFee = optField(o, 'blobBaseFee', decodeQuantity);
  if (number !== undefined) out.number = number;
  if (time !== undefined) out.time = time;
  if (gasLimit !== undefined) out.gasLimit = gasLimit;
  if (feeRecipient !== undefined) out.feeRecipient = feeRecipient;
  if (prevRandao !== undefined) out.prevRandao = prevRandao;
  if (baseFeePerGas !== undefined) out.baseFeePerGas = baseFeePerGas;
  if (blobBaseFee !== undefined) out.blobBaseFee = blobBaseFee;
  return out;
}

function decodeSimBlock(v: unknown): SimBlock {
  const o = decodeObject(v, 'ethapi.simBlock');
  const stateOverrides = optField(o, 'stateOverrides', decodeStateOverrides);
  return {
    overrides: optField(o, 'blockOverrides', decodeBlockOverrides) ?? {},
    ...(stateOverrides ? { stateOverrides } : {}),
    calls: optField(o, 'calls', (c) => decodeArrayOf(c, decodeTransactionRequest, '[]ethapi.TransactionArgs')) ?? [],
  };
}

function decodeSimOptions(v: unknown): SimOptions {
  const o = decodeObject(v, 'ethapi.simOpts');
  return {
    blocks: optField(o, 'blockStateCalls', (b) => decodeArrayOf(b, decodeSimBlock, '[]ethapi.simBlock')) ?? [],
    traceTransfers: optField(o, 'traceTransfers', decodeBoolean) ?? false,
    validation: optField(o, 'validation', decodeBoolean) ?? false,
    returnFullTransactions: optField(o, 'returnFullTransactions', decodeBoolean) ?? false,
  };
}

export const simOptions = (name: string): ParamParser<SimOptions> => makeParser(name, decodeSimOptions);
