import type { ConfigHooks } from './types.js';

/**
 * Where the taken-over network's requests would go if anything bypassed the plugin's onRequest
 * hook. Nothing listens on port 9 (discard) here, so such a request fails instead of reaching
 * some other node.
 */
export const UNREACHABLE_URL = 'http://127.0.0.1:9/ashlar-in-process';

/**
 * Declares the taken-over network as an `http` network: Hardhat then builds a cheap HTTP provider
 * for its connections (never used: the network hook answers every request) instead of starting
 * its own simulated chain.
 */
export function configHooks(networkName: string): ConfigHooks {
  return {
    async extendUserConfig(config, next) {
      const extended = await next(config);
      return {
        ...extended,
        networks: { ...extended.networks, [networkName]: { type: 'http', chainType: 'l1', url: UNREACHABLE_URL } },
      };
    },
  };
}
