import type { EVM } from '@ethereumjs/evm';
import { ChainService } from '../chain/ChainService.js';
import { createChildContainer, provide, resolve } from '../di/container.js';
import { emitDecodedLogs } from '../events/chainLogs.js';
import { EventBus } from '../events/EventBus.js';
import { checkEngineInternals, installEngineSpeedups } from '../evm/internals.js';
import { ExecutionDeadline } from '../exec/ExecutionDeadline.js';
import { useWasmKeccak } from '../chain/nativeCrypto.js';
import { installFastRlp } from '../util/fastRlp.js';
import { openForkOf } from '../fork/openFork.js';
import { Dispatcher } from '../rpc/Dispatcher.js';
import { memoryStorage } from '../storage/memoryStorage.js';
import type { PluginContext } from './definePlugin.js';
import { Kernel } from './Kernel.js';
import { registerKernelServices } from './kernelServices.js';
import { warmCallPath } from './warmCallPath.js';
import { warmContractPath } from './warmContractPath.js';
import type { KernelOptions } from './KernelOptions.js';
import { resolveOptions, silentLogger } from './options.js';
import { orderPlugins } from './orderPlugins.js';
import { openPluginStore } from './PluginStore.js';
import { ServiceProviders } from './ServiceProviders.js';
import { Tokens } from './tokens.js';
import { RequestActivity } from './RequestActivity.js';

/**
 * Builds a kernel: options checked, a child container of its own, storage opened, genesis
 * loaded or created, plugins checked as a set and then registered in dependency order.
 */
export async function createKernel(options: KernelOptions = {}): Promise<Kernel> {
  const resolved = resolveOptions(options);
  // Fails with the expected and found @ethereumjs versions before anything opens (evm/internals.ts).
  await checkEngineInternals();
  await installEngineSpeedups();
  await useWasmKeccak();
  installFastRlp();
  const plugins = orderPlugins(options.plugins ?? []);
  const logger = options.logger ?? silentLogger;
  const storage = options.storage ?? memoryStorage();
  const container = createChildContainer();
  const events = new EventBus();
  emitDecodedLogs(events);
  provide(container, Tokens.options, resolved);
  provide(container, Tokens.logger, logger);
  provide(container, Tokens.storage, storage);
  provide(container, Tokens.events, events);

  await storage.open();
  let chain: ChainService;
  try {
    chain = await ChainService.open(
      resolved.chain,
      storage,
      events,
      logger,
      await openForkOf(resolved, storage, logger),
    );
  } catch (e) {
    await storage.close().catch(() => undefined);
    throw e;
  }
  // The call time limit's opcode wrappers go into the head EVM now, before it runs: installed at
  // the first eth_call instead, after blocks were mined, they changed objects the interpreter's
  // optimised code relied on (ExecutionDeadline).
  if (resolved.rpc.callTimeoutMs > 0) ExecutionDeadline.prepare(chain.vm.evm as EVM);
  // The chain is opened above (async, before any plugin): a value. Every other service is a
  // factory, built on first use, so a plugin's ctx.provide can replace it before anyone uses it.
  provide(container, Tokens.chain, chain);
  const activity = new RequestActivity();
  provide(container, Tokens.activity, activity);
  const providers = new ServiceProviders(container);
  registerKernelServices(providers, {
    options: resolved,
    logger,
    events,
    chain,
    consoleInEstimates: options.consoleInEstimates === true,
  });

  let kernel: Kernel | undefined;
  // Handlers get the kernel's services, never the Kernel itself.
  const handlerContext = () => ({ services: (kernel as Kernel).services });
  const dispatcher = new Dispatcher(resolve(container, Tokens.methods), handlerContext, {
    maxBatchSize: resolved.rpc.maxBatchSize,
    maxResponseBytes: resolved.rpc.maxResponseBytes,
    batchCostBudget: resolved.rpc.batchCostBudget,
    onInternalError: (method, e) =>
      logger.error(`${method} failed: ${e instanceof Error ? (e.stack ?? e.message) : e}`),
    activity,
  });
  const contexts: PluginContext[] = [];
  kernel = new Kernel(container, dispatcher, plugins, contexts);

  try {
    for (const plugin of plugins) {
      // Services first built while this plugin registers are recorded as built by it.
      providers.current = plugin.name;
      const ctx: PluginContext = {
        services: kernel.services,
        container,
        options: resolved,
        events,
        logger,
        routes: resolve(container, Tokens.routes),
        addMethods: (...defs) => {
          for (const d of defs) resolve(container, Tokens.methods).add(d, plugin.name);
        },
        resolve: (tok) => resolve(container, tok),
        provide: (tok, factory) => providers.provide(tok, factory, plugin.name),
        sublevel: (table = 'main', opts) => openPluginStore(storage, chain, logger, plugin.name, table, opts),
      };
      contexts.push(ctx);
      await plugin.register(ctx, plugin.options);
    }
  } catch (e) {
    await kernel.close().catch(() => undefined);
    throw e;
  }
  providers.current = 'kernel';
  // After the plugins: the executor a plugin provided is the one warmed. Only a speed-up: a
  // failure here (a plugin's executor that cannot call yet) is the first real call's to report.
  await warmCallPath(resolve(container, Tokens.executor), chain).catch(() => undefined);
  await warmContractPath(resolve(container, Tokens.executor), chain).catch(() => undefined);
  resolve(container, Tokens.miner).start();
  return kernel;
}
