import { Common, type HardforkTransitionConfig, Mainnet, createCustomCommon } from '@ethereumjs/common';
import { nativeCrypto } from './nativeCrypto.js';

// Hardforks a dev chain can run, oldest first. `mergeNetsplitBlock` is a marker, not a ruleset.
const MAINNET_FORKS = Mainnet.hardforks.map((h) => h.name).filter((n) => n !== 'mergeNetsplitBlock' && n !== 'dao');

/** Forks scheduled on mainnet (with a block or a time) — the newest of them is our default. */
const SCHEDULED = Mainnet.hardforks.filter(
  (h) => (h.block !== null && h.block !== undefined) || h.timestamp !== undefined,
);

export const SUPPORTED_HARDFORKS: string[] = MAINNET_FORKS.filter((n) => SCHEDULED.some((h) => h.name === n));
export const DEFAULT_HARDFORK: string = SUPPORTED_HARDFORKS[SUPPORTED_HARDFORKS.length - 1];

/**
 * A Common for a dev chain: every fork up to `hardfork` active from genesis (block 0 /
 * time 0), so blocks decoded later with `setHardfork` resolve to the same rules. Signature
 * work goes through the native secp256k1 (see nativeCrypto.ts).
 */
export function createDevCommon(chainId: bigint, hardfork: string): Common {
  const upTo = MAINNET_FORKS.indexOf(hardfork);
  const hardforks: HardforkTransitionConfig[] = [];
  let timeBased = false;
  for (const h of Mainnet.hardforks) {
    if (h.name === 'dao' || h.name === 'mergeNetsplitBlock') continue;
    const i = MAINNET_FORKS.indexOf(h.name);
    if (i > upTo) break;
    if (h.timestamp !== undefined) timeBased = true;
    hardforks.push(timeBased ? { name: h.name, block: null, timestamp: 0 } : { name: h.name, block: 0 });
  }
  const common = createCustomCommon(
    {
      name: 'ashlar',
      chainId: Number(chainId) <= Number.MAX_SAFE_INTEGER ? Number(chainId) : chainId.toString(),
      hardforks,
      defaultHardfork: hardfork,
    },
    Mainnet,
    { hardfork, customCrypto: nativeCrypto },
  );
  return common;
}

export function isMerged(common: Common): boolean {
  return common.gteHardfork('paris');
}

export { Common };
