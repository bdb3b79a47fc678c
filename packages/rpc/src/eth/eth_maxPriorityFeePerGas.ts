import { defineRpcMethod, toQuantity } from '@ashlar/core';

/** 1 gwei: what Hardhat and Anvil suggest; a dev chain has no fee market to sample. */
export const DEFAULT_PRIORITY_FEE = 1_000_000_000n;

export const eth_maxPriorityFeePerGas = defineRpcMethod({
  name: 'eth_maxPriorityFeePerGas',
  params: [],
  handler: () => toQuantity(DEFAULT_PRIORITY_FEE),
});
