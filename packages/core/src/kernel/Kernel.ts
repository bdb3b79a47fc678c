import type { ChainService } from '../chain/ChainService.js';
import { type DependencyContainer, type Token, resolve } from '../di/container.js';
import { AshlarError, isAshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import { RpcRequestError } from '../errors/RpcRequestError.js';
import { domainCodeOf, toRpcError } from '../errors/toRpcError.js';
import type { EventBus } from '../events/EventBus.js';
import type { Executor } from '../exec/Executor.js';
import type { MempoolService } from '../mempool/MempoolService.js';
import type { TxService } from '../mempool/TxService.js';
import type { MinerService } from '../miner/MinerService.js';
import { type Dispatcher, batchJsonOf } from '../rpc/Dispatcher.js';
import type { MethodRegistry } from '../rpc/MethodRegistry.js';
import type { EngineCloseHook, JsonRpcResponse, RpcContext, RpcEngine } from '../rpc/types.js';
import type { RouteRegistry } from '../routes/RouteRegistry.js';
import type { Plugin, PluginContext } from './definePlugin.js';
import type { Logger, ResolvedOptions } from './options.js';
import type { KernelServices } from './services.js';
import { createKernelServices } from './servicesView.js';
import { Tokens } from './tokens.js';

/** Kept here too: it was first exported from this module. */
export { RpcRequestError };

const closedError = (): AshlarError => new AshlarError(ErrorCodes.CLOSED, 'the chain is closed');

/** What every call answers once the kernel is closed (ASHLAR_ERR_KERNEL_CLOSED, as the wire carries it). */
const CLOSED_REFUSAL: { readonly code: number; readonly message: string } = (() => {
  const { code, message } = toRpcError(closedError());
  return Object.freeze({ code, message });
})();

/** One chain in a process: its own container, services, methods and routes. */
export class Kernel implements RpcEngine {
  private closing?: Promise<void>;
  /** What transports attached (onClose), closed first by close(); undefined once they are. */
  private attachments: Set<EngineCloseHook> | undefined = new Set();
  /** Held outside the container: close clears the container, and a late error must still log. */
  private readonly log: Logger;
  /** The services plugins and handlers get (ctx.services); one object for the kernel's life. */
  readonly services: KernelServices;

  constructor(
    readonly container: DependencyContainer,
    private readonly dispatcher: Dispatcher,
    private readonly plugins: readonly Plugin<unknown>[],
    /** The context each plugin registered with, in registration order (filled by createKernel). */
    private readonly contexts: readonly PluginContext[] = [],
  ) {
    this.log = resolve(container, Tokens.logger);
    this.services = createKernelServices({
      resolve: (tok) => this.resolve(tok),
      isRegistered: (tok) => container.isRegistered(tok, true),
      closed: () => this.closing !== undefined,
    });
  }

  /**
   * The service under a token. A token nobody registered fails with its name and what to do
   * (mount and declare the plugin that provides it), or as ASHLAR_ERR_KERNEL_CLOSED once the
   * kernel has closed (close clears the container), never as tsyringe's bare message.
   */
  resolve<T>(tok: Token<T>): T {
    try {
      return resolve(this.container, tok);
    } catch (e) {
      throw this.resolveFailure(tok, e);
    }
  }

  private resolveFailure(tok: Token<unknown>, e: unknown): Error {
    if (this.closing !== undefined) return closedError();
    if (this.container.isRegistered(tok, true)) return e instanceof Error ? e : new Error(String(e));
    const name = tok.description ?? String(tok);
    return new Error(
      `service "${name}" is not registered in this kernel: mount the plugin that provides it, and list that plugin in your plugin's dependencies`,
    );
  }

  get options(): ResolvedOptions {
    return this.resolve(Tokens.options);
  }
  get events(): EventBus {
    return this.resolve(Tokens.events);
  }
  get chain(): ChainService {
    return this.resolve(Tokens.chain);
  }
  get mempool(): MempoolService {
    return this.resolve(Tokens.mempool);
  }
  get miner(): MinerService {
    return this.resolve(Tokens.miner);
  }
  get txs(): TxService {
    return this.resolve(Tokens.txs);
  }
  get executor(): Executor {
    return this.resolve(Tokens.executor);
  }
  get methods(): MethodRegistry {
    return this.resolve(Tokens.methods);
  }
  get routes(): RouteRegistry {
    return this.resolve(Tokens.routes);
  }
  get logger(): Logger {
    return this.resolve(Tokens.logger);
  }

  /** The JSON-RPC envelope entry used by transports: a parsed body in, a response out. */
  handle(payload: unknown, ctx?: Partial<RpcContext>): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    return this.dispatcher.handle(payload, ctx);
  }

  /** The JSON text of a batch's answers when the dispatcher already made it (see RpcEngine.jsonOf). */
  jsonOf(answers: unknown): string | undefined {
    return batchJsonOf(answers);
  }

  /**
   * EIP-1193-style call: the result, or a thrown RpcRequestError with the wire `code`, `data`,
   * and the domain code as `ashlarCode` (`ASHLAR_ERR_*`, or a plugin's own) to match on.
   */
  async request<T = unknown>(
    args: { method: string; params?: readonly unknown[] | object },
    ctx?: Partial<RpcContext>,
  ): Promise<T> {
    try {
      return (await this.dispatcher.call(args.method, args.params, ctx)) as T;
    } catch (e) {
      const err = toRpcError(e);
      const domain = domainCodeOf(e);
      if (!isAshlarError(e) && domain === ErrorCodes.INTERNAL)
        this.log.error(`${args.method} failed: ${e instanceof Error ? (e.stack ?? e.message) : e}`);
      throw new RpcRequestError(err.code, err.message, err.data, domain);
    }
  }

  /**
   * Registers what a transport attached (its connections, subscriptions, timers) to be closed by
   * close(), so transports and kernel may close in either order; answers the unregistering
   * function for a transport that closes first. On a kernel whose transports are already
   * closed, `hook` runs at once (in a microtask). See EngineCloseHook.
   */
  onClose(hook: EngineCloseHook): () => void {
    const hooks = this.attachments;
    if (hooks === undefined) {
      queueMicrotask(() => void this.runCloseHooks([hook], CLOSED_REFUSAL));
      return () => {};
    }
    hooks.add(hook);
    return () => {
      hooks.delete(hook);
    };
  }

  private async runCloseHooks(
    hooks: readonly EngineCloseHook[],
    refusal: { code: number; message: string },
  ): Promise<void> {
    await Promise.all(
      hooks.map(async (hook) => {
        try {
          await hook(refusal);
        } catch (e) {
          this.log.error(`a transport failed to close: ${e instanceof Error ? e.message : e}`);
        }
      }),
    );
  }

  /**
   * Refuses new requests (ASHLAR_ERR_KERNEL_CLOSED, in-process and on every transport), closes
   * what transports attached (answers in flight go out first), stops mining, runs plugin close
   * hooks in reverse order, drains writes, closes storage. Closing again answers the same promise.
   */
  close(): Promise<void> {
    if (!this.closing) this.closing = this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    this.dispatcher.refuse(closedError());
    // Transports before anything else closes: what they have in flight still answers, and no
    // connection or subscription outlives the kernel whichever was closed first.
    const attached = [...(this.attachments ?? [])];
    this.attachments = undefined;
    await this.runCloseHooks(attached, CLOSED_REFUSAL);
    this.miner.stop();
    // Only plugins whose register ran (a failed start closes what it started), last first.
    for (let i = this.contexts.length - 1; i >= 0; i--) {
      const p = this.plugins[i];
      try {
        await p.close?.(this.contexts[i]);
      } catch (e) {
        this.log.error(`plugin ${p.name} failed to close: ${e instanceof Error ? e.message : e}`);
      }
    }
    // After every close hook (their reverse order is the guarantee), before the chain closes.
    this.events.emit('close');
    await this.chain.close();
    await this.resolve(Tokens.storage).close();
    this.events.removeAllListeners();
    this.container.clearInstances();
  }
}
