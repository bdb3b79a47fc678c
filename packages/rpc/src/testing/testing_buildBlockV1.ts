import { AshlarError, ErrorCodes, type ParamParser, defineRpcMethod, toData, toQuantity } from '@ashlar/core';
import {
  decodeAddress,
  decodeArrayOf,
  decodeData,
  decodeHash,
  decodeObject,
  decodeQuantity,
  decodeQuantityU64,
  hash,
  makeParser,
  optField,
  optional,
} from '../params/index.js';
import { DecodeError } from '../params/index.js';
import { type PayloadAttributes, buildPayload, executionPayload } from './buildPayload.js';

function decodeAttributes(v: unknown): PayloadAttributes {
  const o = decodeObject(v, 'engine.PayloadAttributes');
  const timestamp = optField(o, 'timestamp', decodeQuantityU64);
  const prevRandao = optField(o, 'prevRandao', decodeHash);
  const feeRecipient = optField(o, 'suggestedFeeRecipient', decodeAddress);
  if (timestamp === undefined || prevRandao === undefined || feeRecipient === undefined)
    throw new DecodeError('missing required field: timestamp, prevRandao and suggestedFeeRecipient are required');
  const withdrawals = optField(o, 'withdrawals', (w) =>
    decodeArrayOf(w, (x) => {
      const e = decodeObject(x, 'types.Withdrawal');
      return {
        index: optField(e, 'index', decodeQuantityU64) ?? 0n,
        validatorIndex: optField(e, 'validatorIndex', decodeQuantityU64) ?? 0n,
        address: (optField(e, 'address', decodeAddress) ?? decodeAddress(`0x${'00'.repeat(20)}`)).toString(),
        amount: optField(e, 'amount', decodeQuantity) ?? 0n,
      };
    }),
  );
  const beaconRoot = optField(o, 'parentBeaconBlockRoot', decodeHash);
  return {
    timestamp,
    prevRandao,
    suggestedFeeRecipient: feeRecipient.toString(),
    ...(withdrawals ? { withdrawals } : {}),
    ...(beaconRoot ? { parentBeaconBlockRoot: beaconRoot } : {}),
  };
}

const attributes = (name: string): ParamParser<PayloadAttributes> => makeParser(name, decodeAttributes);
const rawTransactions = (name: string): ParamParser<Uint8Array[]> =>
  makeParser(name, (v) => decodeArrayOf(v, decodeData, '[]hexutil.Bytes'));

/**
 * Builds (and does not import) the block that would follow `parentHash`, with the given
 * transactions or, for null, the pool's: the Engine-API-shaped answer of geth's testing API.
 * The blobs bundle is always empty: the pool keeps blob transactions without their sidecars.
 */
export const testing_buildBlockV1 = defineRpcMethod({
  name: 'testing_buildBlockV1',
  params: [
    hash('parentHash'),
    attributes('payloadAttributes'),
    optional(rawTransactions('transactions')),
    optional(makeParser('extraData', decodeData)),
  ],
  handler: async (ctx, [parentHash, attrs, txs, extra]) => {
    const parent = await ctx.services.chain.getBlockByHash(parentHash);
    if (!parent) throw new AshlarError(ErrorCodes.BLOCK_NOT_FOUND, `parent block ${toData(parentHash)} not found`);
    const built = await buildPayload(ctx.services, parent, attrs, txs ?? null, extra ?? new Uint8Array(0));
    return {
      executionPayload: executionPayload(built.block),
      blockValue: toQuantity(built.value),
      blobsBundle: { commitments: [], proofs: [], blobs: [] },
      executionRequests: built.requests.map((r) => toData(r)),
      shouldOverrideBuilder: false,
    };
  },
});
