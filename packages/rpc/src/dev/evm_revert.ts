import { defineRpcMethod } from '@ashlar/core';
import { quantityOrNumber } from './params.js';
import { dev } from './services.js';

/**
 * Goes back to a snapshot: head, state, pool and clock. Ids are one-shot (Hardhat): the
 * snapshot and every later one are gone afterwards. An unknown id answers false.
 */
export const evm_revert = defineRpcMethod({
  name: 'evm_revert',
  aliases: ['anvil_revert'],
  params: [quantityOrNumber('snapshotId')],
  handler: (ctx, [id]) =>
    id > BigInt(Number.MAX_SAFE_INTEGER) ? false : dev(ctx.services).snapshots.revert(Number(id)),
});
