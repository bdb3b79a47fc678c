import { defineRpcMethod, toData, toQuantity } from '@ashlar/core';
import { dev } from './services.js';

/** Hardhat's node metadata: who answers, on which chain, and an id that changes on every start and reset. */
export const hardhat_metadata = defineRpcMethod({
  name: 'hardhat_metadata',
  params: [],
  handler: (ctx) => {
    const k = ctx.kernel;
    return {
      clientVersion: k.options.clientVersion,
      chainId: Number(k.options.chain.chainId),
      instanceId: toData(dev(k).snapshots.instanceId),
      latestBlockNumber: Number(k.chain.head.number),
      latestBlockHash: toData(k.chain.head.hash),
    };
  },
});

/** Anvil's node information, in its field names. */
export const anvil_nodeInfo = defineRpcMethod({
  name: 'anvil_nodeInfo',
  params: [],
  handler: (ctx) => {
    const k = ctx.kernel;
    const head = k.chain.head;
    const baseFee = k.miner.nextBlockBaseFee() ?? 0n;
    return {
      currentBlockNumber: toQuantity(head.number),
      currentBlockTimestamp: Number(head.block.header.timestamp),
      currentBlockHash: toData(head.hash),
      hardFork: k.chain.common.hardfork(),
      transactionOrder: 'fees',
      environment: {
        baseFee: toQuantity(baseFee),
        chainId: Number(k.options.chain.chainId),
        gasLimit: toQuantity(k.miner.gasLimit),
        gasPrice: toQuantity(baseFee > k.miner.minGasPrice ? baseFee : k.miner.minGasPrice),
      },
      forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
    };
  },
});
