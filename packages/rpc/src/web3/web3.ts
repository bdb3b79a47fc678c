import { defineRpcMethod, toData } from '@ashlar/core';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { data } from '../params/index.js';

export const web3_clientVersion = defineRpcMethod({
  name: 'web3_clientVersion',
  params: [],
  handler: (ctx) => ctx.services.options.clientVersion,
});

/** Keccak-256 (not the standardized SHA3-256) of the data. */
export const web3_sha3 = defineRpcMethod({
  name: 'web3_sha3',
  params: [data('data')],
  handler: (_ctx, [d]) => toData(keccak_256(d)),
});
