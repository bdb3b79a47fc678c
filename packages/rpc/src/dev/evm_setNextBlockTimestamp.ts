import { defineRpcMethod } from '@ashlar/core';
import { argumentError } from '../params/index.js';
import { MAX_TIMESTAMP, quantityOrNumber } from './params.js';

/**
 * Fixes the next block's timestamp, which must come after the head's (-32602 naming the
 * parameter otherwise). Answers the timestamp as a decimal string, as Hardhat does.
 */
export const evm_setNextBlockTimestamp = defineRpcMethod({
  name: 'evm_setNextBlockTimestamp',
  aliases: ['anvil_setNextBlockTimestamp'],
  params: [quantityOrNumber('timestamp')],
  handler: (ctx, [timestamp]) => {
    const head = ctx.services.chain.head.block.header.timestamp;
    if (timestamp <= head) {
      throw argumentError(
        0,
        'timestamp',
        `timestamp ${timestamp} is lower than or equal to the previous block's timestamp ${head}`,
      );
    }
    if (timestamp > MAX_TIMESTAMP) throw argumentError(0, 'timestamp', `timestamp ${timestamp} is past 2^64-1`);
    ctx.services.miner.nextTimestamp = timestamp;
    return timestamp.toString();
  },
});
