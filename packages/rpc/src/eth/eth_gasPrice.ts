import { defineRpcMethod, toQuantity } from '@ashlar/core';
import { DEFAULT_PRIORITY_FEE } from './eth_maxPriorityFeePerGas.js';

/** Next block's base fee plus the suggested tip (as Hardhat and Anvil suggest on a dev chain). */
export const eth_gasPrice = defineRpcMethod({
  name: 'eth_gasPrice',
  params: [],
  handler: (ctx) => {
    const base = ctx.services.miner.nextBlockBaseFee();
    const min = ctx.services.miner.minGasPrice;
    const price = base === undefined ? DEFAULT_PRIORITY_FEE : base + DEFAULT_PRIORITY_FEE;
    return toQuantity(price > min ? price : min);
  },
});
