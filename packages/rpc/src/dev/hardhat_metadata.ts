import { VERSION, defineRpcMethod, engineVersion, toData, toQuantity } from '@ashlar/core';
import { dev } from './services.js';

/**
 * Hardhat's node metadata, in Hardhat 2.29's shape: the engine that answers (Hardhat names EDR
 * there, `edr/0.3.8/revm/…`; Ashlar names itself), the chain, an id that changes on every start
 * and reset (OpenZeppelin's upgrades plugin keys its dev-network manifests by it) and the head.
 * `forkedNetwork` is absent: Ashlar does not fork.
 */
export const hardhat_metadata = defineRpcMethod({
  name: 'hardhat_metadata',
  params: [],
  handler: (ctx) => {
    const k = ctx.kernel;
    return {
      clientVersion: engineVersion(),
      chainId: Number(k.options.chain.chainId),
      instanceId: toData(dev(k).snapshots.instanceId),
      latestBlockNumber: Number(k.chain.head.number),
      latestBlockHash: toData(k.chain.head.hash),
    };
  },
});

/**
 * Anvil's node metadata, in Anvil 1.7's shape: the same fields as hardhat_metadata plus the
 * version's parts, `forkedNetwork: null` and the snapshots held (id → [block number, hash]).
 */
export const anvil_metadata = defineRpcMethod({
  name: 'anvil_metadata',
  params: [],
  handler: async (ctx) => {
    const k = ctx.kernel;
    const services = dev(k);
    const snapshots: Record<string, [number, string]> = {};
    for (const s of services.snapshots.list()) {
      const block = await k.chain.getBlock(s.number);
      if (block) snapshots[toQuantity(BigInt(s.id))] = [Number(s.number), toData(block.hash)];
    }
    return {
      clientVersion: k.options.clientVersion,
      clientSemver: VERSION,
      clientCommitSha: '',
      chainId: Number(k.options.chain.chainId),
      instanceId: toData(services.snapshots.instanceId),
      latestBlockNumber: Number(k.chain.head.number),
      latestBlockHash: toData(k.chain.head.hash),
      forkedNetwork: null,
      snapshots,
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
