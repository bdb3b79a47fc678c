import { Common, type HardforkTransitionConfig, Mainnet, createCustomCommon } from '@ethereumjs/common';
import { paramsBlock } from '@ethereumjs/block';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';
import { lazyKzg } from './kzg.js';
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
 * work goes through the native secp256k1 (see nativeCrypto.ts), KZG through kzg.ts (lazily loaded).
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
    { hardfork, customCrypto: { ...nativeCrypto, kzg: lazyKzg } },
  );
  return withMemoizedParams(common);
}

/**
 * Every header, block and transaction @ethereumjs creates copies its Common and merges its
 * package's parameter table into it again (a JSON deep copy of every EIP's parameters and a
 * rebuilt cache: ~0.4 ms, several times per block and once per transaction). The tables never
 * change, so they are merged once here and later merges of the same table are skipped; the
 * override is an own property, so every copy inherits it.
 */
export function withMemoizedParams(common: Common): Common {
  const merged = new Set<object>();
  const original = common.updateParams.bind(common);
  const proto = Object.getPrototypeOf(common) as { updateParams: Common['updateParams'] };
  for (const p of [paramsBlock, paramsTx, paramsEVM, paramsVM]) {
    original(p);
    merged.add(p);
  }
  Object.defineProperty(common, 'updateParams', {
    enumerable: true,
    writable: true,
    value(this: Common, params: Parameters<Common['updateParams']>[0]) {
      if (merged.has(params)) return;
      proto.updateParams.call(this, params);
    },
  });
  return common;
}

export function isMerged(common: Common): boolean {
  return common.gteHardfork('paris');
}

export { Common };
