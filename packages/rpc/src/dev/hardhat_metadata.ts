import { type ForkContext, VERSION, defineRpcMethod, engineVersion, toData, toQuantity } from '@ashlar/core';
import { dev } from './services.js';

/**
 * Hardhat's node metadata, in Hardhat 2.29's shape: the engine that answers (Hardhat names EDR
 * there, `edr/0.3.8/revm/…`; Ashlar names itself), the chain, an id that changes on every start
 * and reset (OpenZeppelin's upgrades plugin keys its dev-network manifests by it) and the head.
 * On a forked chain, `forkedNetwork` names the upstream's chain id and the fork block (as Hardhat's).
 */
export const hardhat_metadata = defineRpcMethod({
  name: 'hardhat_metadata',
  params: [],
  handler: (ctx) => {
    const svc = ctx.services;
    return {
      clientVersion: engineVersion(),
      chainId: Number(svc.options.chain.chainId),
      instanceId: toData(dev(svc).snapshots.instanceId),
      latestBlockNumber: Number(svc.chain.head.number),
      latestBlockHash: toData(svc.chain.head.hash),
      ...(svc.chain.fork ? { forkedNetwork: forkedNetwork(svc.chain.fork) } : {}),
    };
  },
});

/** The fork as Hardhat's and Anvil's metadata describe it: the upstream's chain id and block N. */
function forkedNetwork(fork: ForkContext): { chainId: number; forkBlockNumber: number; forkBlockHash: string } {
  return {
    chainId: Number(fork.upstreamChainId),
    forkBlockNumber: Number(fork.number),
    forkBlockHash: toData(fork.hash),
  };
}

/**
 * Anvil's node metadata, in Anvil 1.7's shape: the same fields as hardhat_metadata plus the
 * version's parts, `forkedNetwork` (null without a fork) and the snapshots held (id → [block number, hash]).
 */
export const anvil_metadata = defineRpcMethod({
  name: 'anvil_metadata',
  params: [],
  handler: async (ctx) => {
    const svc = ctx.services;
    const devServices = dev(svc);
    const snapshots: Record<string, [number, string]> = {};
    for (const s of devServices.snapshots.list()) {
      const block = await svc.chain.getBlock(s.number);
      if (block) snapshots[toQuantity(BigInt(s.id))] = [Number(s.number), toData(block.hash)];
    }
    return {
      clientVersion: svc.options.clientVersion,
      clientSemver: VERSION,
      clientCommitSha: '',
      chainId: Number(svc.options.chain.chainId),
      instanceId: toData(devServices.snapshots.instanceId),
      latestBlockNumber: Number(svc.chain.head.number),
      latestBlockHash: toData(svc.chain.head.hash),
      forkedNetwork: svc.chain.fork ? forkedNetwork(svc.chain.fork) : null,
      snapshots,
    };
  },
});

/** Anvil's node information, in its field names. */
export const anvil_nodeInfo = defineRpcMethod({
  name: 'anvil_nodeInfo',
  params: [],
  handler: (ctx) => {
    const svc = ctx.services;
    const head = svc.chain.head;
    const fork = svc.chain.fork;
    const baseFee = svc.miner.nextBlockBaseFee() ?? 0n;
    return {
      currentBlockNumber: toQuantity(head.number),
      currentBlockTimestamp: Number(head.block.header.timestamp),
      currentBlockHash: toData(head.hash),
      hardFork: svc.chain.common.hardfork(),
      transactionOrder: 'fees',
      environment: {
        baseFee: toQuantity(baseFee),
        chainId: Number(svc.options.chain.chainId),
        gasLimit: toQuantity(svc.miner.gasLimit),
        gasPrice: toQuantity(baseFee > svc.miner.minGasPrice ? baseFee : svc.miner.minGasPrice),
      },
      forkConfig: fork
        ? {
            forkUrl: shownUrl(fork),
            forkBlockNumber: Number(fork.number),
            forkRetryBackoff: fork.retryBackoffMs,
          }
        : { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
    };
  },
});

/**
 * The fork URL as given (as Anvil shows it), unless it holds credentials or key-like parts: any
 * client of the node reads this, so then the URL as logs show it, without them.
 */
function shownUrl(fork: ForkContext): string {
  return fork.client.displayUrl === new URL(fork.options.url).href ? fork.options.url : fork.client.displayUrl;
}
