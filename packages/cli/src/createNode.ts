import { type Kernel, type KernelOptions, type Plugin, createKernel, indexPlugin } from '@ashlar/core';
import { explorerPlugin } from '@ashlar/explorer';
import { otsPlugin, rpcPlugins } from '@ashlar/rpc';
import { levelStorage, memoryStorage } from '@ashlar/storage-level';

export interface NodeOptions extends Omit<KernelOptions, 'storage' | 'plugins'> {
  /** LevelDB directory; absent (or `memory: true`) keeps the chain in memory. */
  db?: string;
  memory?: boolean;
  /** Extra plugins (your RPC methods and routes), after the built-in ones. */
  plugins?: readonly Plugin<unknown>[];
  /**
   * Serve the explorer API (/api/v2) and keep its index (default true). Without it the node runs
   * no index, so no `ots_` namespace either (`rpc:ots` needs the index).
   */
  explorer?: boolean;
  /** Rebuild the explorer index from the stored blocks on start (`--reindex`). */
  reindex?: boolean;
  /** Verify deployed contracts from this Hardhat or Foundry build folder, watched (`--artifacts`). */
  artifacts?: string;
}

/** A kernel with every built-in plugin: what `ashlar` serves, for embedding in-process. */
export function createNode(options: NodeOptions = {}): Promise<Kernel> {
  const { db, memory, plugins = [], explorer = true, reindex, artifacts, ...rest } = options;
  const storage = db !== undefined && !memory ? levelStorage({ path: db }) : memoryStorage();
  const indexed = explorer
    ? [indexPlugin({ reindex }), otsPlugin, explorerPlugin({ artifacts })].map((p) => p as Plugin<unknown>)
    : [];
  const builtIn = [...rpcPlugins(), ...indexed];
  return createKernel({ ...rest, storage, plugins: [...builtIn, ...plugins] });
}
