// Hardhat 3: `plugins: [ashlar]` (or `ashlar({ ...options })`) in hardhat.config.ts runs the
// `default` network, the one `network.connect()` and `npx hardhat test` use, on an in-process
// Ashlar chain.
import type { AshlarHardhatOptions } from '../options.js';
import { configHooks } from './configHooks.js';
import { networkHooks } from './networkHooks.js';
import type { HardhatPluginLike } from './types.js';

export interface AshlarHardhat3Options extends AshlarHardhatOptions {
  /** The network whose connections run on Ashlar (default `default`, Hardhat 3's default network). */
  network?: string;
}

/** The Hardhat 3 plugin with these options. */
export function ashlar(options: AshlarHardhat3Options = {}): HardhatPluginLike {
  const { network = 'default', ...chainOptions } = options;
  return {
    id: 'ashlar',
    npmPackage: '@ashlar/hardhat',
    hookHandlers: {
      config: async () => ({ default: async () => configHooks(network) }),
      network: async () => ({ default: async () => networkHooks(network, chainOptions) }),
    },
  };
}

/** The plugin with its defaults: the `default` network, in memory, Hardhat-style fees. */
const plugin: HardhatPluginLike = ashlar();
export default plugin;

export type { AshlarHardhatOptions } from '../options.js';
export type { HardhatPluginLike } from './types.js';
