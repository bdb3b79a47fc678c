import { AshlarError, ErrorCodes, defineRpcMethod } from '@ashlar/core';
import { decodeObject, makeParser, optional } from '../params/index.js';
import { dev } from './services.js';

/** Hardhat's `{ forking: { jsonRpcUrl, blockNumber } }`: accepted only without a fork URL. */
const resetOptions = makeParser('options', (v) => {
  const o = decodeObject(v, 'object');
  const forking = o.forking;
  const url =
    typeof forking === 'object' && forking !== null ? (forking as Record<string, unknown>).jsonRpcUrl : undefined;
  if (url !== undefined && url !== null) {
    throw new AshlarError(
      ErrorCodes.INVALID_PARAMS,
      'invalid argument 0 (options): forking is not supported: Ashlar resets to its own genesis',
    );
  }
  return o;
});

/**
 * Back to a fresh genesis with the node's options: blocks, receipts, lookups and indexes
 * removed, state at the genesis root, pool, snapshots, impersonations and miner settings
 * cleared. Costs O(blocks on the chain).
 */
export const hardhat_reset = defineRpcMethod({
  name: 'hardhat_reset',
  aliases: ['anvil_reset'],
  params: [optional(resetOptions)],
  handler: async (ctx) => {
    await dev(ctx.services).snapshots.reset();
    return true;
  },
});
