import { defineRpcMethod, toQuantity } from '@ashlar/core';

/** Base fee of the next block (null before London). */
export const eth_baseFee = defineRpcMethod({
  name: 'eth_baseFee',
  params: [],
  handler: (ctx) => {
    const fee = ctx.services.miner.nextBlockBaseFee();
    return fee === undefined ? null : toQuantity(fee);
  },
});
