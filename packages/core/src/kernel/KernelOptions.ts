import type { StoragePort } from '../storage/StoragePort.js';
import type { Plugin } from './definePlugin.js';
import type { KernelSettings, Logger } from './options.js';

/** What createKernel takes: the settings (options.ts) plus where the chain is kept, its plugins and logger. */
export interface KernelOptions extends KernelSettings {
  /** Where the chain is kept (default: in memory). */
  storage?: StoragePort;
  plugins?: readonly Plugin[];
  logger?: Logger;
}
