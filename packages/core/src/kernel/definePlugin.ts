import type { DependencyContainer, Token } from '../di/container.js';
import type { EventBus } from '../events/EventBus.js';
import type { RpcMethodDefinition } from '../rpc/types.js';
import type { Kernel } from './Kernel.js';
import type { Logger, ResolvedOptions } from './options.js';
import type { RouteRegistry } from '../routes/RouteRegistry.js';

/** What a plugin may touch while it registers. */
export interface PluginContext {
  readonly kernel: Kernel;
  readonly container: DependencyContainer;
  readonly options: ResolvedOptions;
  readonly events: EventBus;
  readonly logger: Logger;
  /** Adds RPC methods (owned by this plugin, for error messages). */
  addMethods(...defs: RpcMethodDefinition[]): void;
  /** The REST router (`/api/v2` routes of the explorer and of user plugins). */
  readonly routes: RouteRegistry;
  resolve<T>(token: Token<T>): T;
  /** Registers a service under a token, built on first use, one per kernel. */
  provide<T>(token: Token<T>, factory: (c: DependencyContainer) => T): void;
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
