import type { DependencyContainer, Token } from '../di/container.js';
import type { EventBus } from '../events/EventBus.js';
import type { RpcMethodDefinition } from '../rpc/types.js';
import type { RouteRegistry } from '../routes/RouteRegistry.js';
import type { Logger, ResolvedOptions } from './options.js';
import type { PluginStore, PluginTableOptions } from './PluginStore.js';
import type { ServiceFactory } from './ServiceProviders.js';
import type { KernelServices } from './services.js';

/** What a plugin may touch while it registers. */
export interface PluginContext {
  /** The kernel's typed services (`ctx.services.chain`, `.mempool`, `.executor`, …): what handlers get too. */
  readonly services: KernelServices;
  readonly container: DependencyContainer;
  readonly options: ResolvedOptions;
  readonly events: EventBus;
  readonly logger: Logger;
  /** Adds RPC methods (owned by this plugin, for error messages). */
  addMethods(...defs: RpcMethodDefinition[]): void;
  /** The REST router (`/api/v2` routes of the explorer and of user plugins). */
  readonly routes: RouteRegistry;
  resolve<T>(token: Token<T>): T;
  /**
   * Registers a service under a token, built on first use, one per kernel. Under a kernel token
   * (`Tokens.executor`, `Tokens.mempool`, …) it replaces the kernel's service for everyone;
   * `previous()` builds what was there before, to wrap it. Replacing a service a plugin
   * registered earlier already used fails with ASHLAR_ERR_PLUGIN_SERVICE_IN_USE.
   */
  provide<T>(token: Token<T>, factory: ServiceFactory<T>): void;
  /**
   * A table of this plugin's own storage (`table` defaults to `main`): a sublevel named under the
   * plugin's name, fenced from the chain's, whose writes can join each block's batch and be
   * undone on `evm_revert` (see PluginStore).
   */
  sublevel<K = string, V = unknown>(table?: string, options?: PluginTableOptions): PluginStore<K, V>;
}

export interface Plugin<O = unknown> {
  readonly name: string;
  readonly dependencies?: readonly string[];
  readonly options?: O;
  register(ctx: PluginContext, options: O): void | Promise<void>;
  /**
   * Runs on kernel.close(), in reverse registration order, with the context this plugin
   * registered with (so a plugin object shared by two kernels knows which one is closing).
   */
  close?(ctx: PluginContext): void | Promise<void>;
}

/** Declares a plugin: a plain object, its dependencies checked before anything registers. */
export function definePlugin<O = undefined>(plugin: Plugin<O>): Plugin<O> {
  return plugin;
}
