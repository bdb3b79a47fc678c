import { ChainService } from '../chain/ChainService.js';
import { createChildContainer, provide, resolve } from '../di/container.js';
import { emitDecodedLogs } from '../events/chainLogs.js';
import { EventBus } from '../events/EventBus.js';
import { checkEngineInternals, installEngineSpeedups } from '../evm/internals.js';
import { Executor } from '../exec/Executor.js';
import { KnownContracts, KnownContractsToken } from '../exec/KnownContracts.js';
import { MempoolService } from '../mempool/MempoolService.js';
import { TxService } from '../mempool/TxService.js';
import { MinerService } from '../miner/MinerService.js';
import { Dispatcher } from '../rpc/Dispatcher.js';
import { MethodRegistry } from '../rpc/MethodRegistry.js';
import { RouteRegistry } from '../routes/RouteRegistry.js';
import { memoryStorage } from '../storage/memoryStorage.js';
import type { PluginContext } from './definePlugin.js';
import { Kernel } from './Kernel.js';
import { type KernelOptions, resolveOptions, silentLogger } from './options.js';
import { orderPlugins } from './orderPlugins.js';
import { Tokens } from './tokens.js';
import { instancePerContainerCachingFactory } from 'tsyringe';

/**
 * Builds a kernel: options checked, a child container of its own, storage opened, genesis
 * loaded or created, plugins checked as a set and then registered in dependency order.
 */
export async function createKernel(options: KernelOptions = {}): Promise<Kernel> {
  const resolved = resolveOptions(options);
  // Fails with the expected and found @ethereumjs versions before anything opens (evm/internals.ts).
  await checkEngineInternals();
  await installEngineSpeedups();
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
  provide(container, Tokens.methods, new MethodRegistry());
  provide(container, Tokens.routes, new RouteRegistry());

  await storage.open();
  let chain: ChainService;
  try {
    chain = await ChainService.open(resolved, storage, events, logger);
  } catch (e) {
    await storage.close().catch(() => undefined);
    throw e;
  }
  const mempool = new MempoolService();
  // Contract names and ABIs plugins know (the explorer's verified contracts): revert messages name custom errors.
  const knownContracts = new KnownContracts();
  provide(container, KnownContractsToken, knownContracts);
  const miner = new MinerService(chain, mempool, events, logger, resolved);
  provide(container, Tokens.chain, chain);
  provide(container, Tokens.mempool, mempool);
  provide(container, Tokens.miner, miner);
  provide(container, Tokens.txs, new TxService(chain, mempool, miner, events));
  provide(
    container,
    Tokens.executor,
    new Executor(
      chain,
      resolved.rpc.callGasCap,
      resolved.rpc.callTimeoutMs,
      miner,
      {
        events,
        estimates: options.consoleInEstimates === true,
      },
      knownContracts,
    ),
  );

  let kernel: Kernel | undefined;
  const dispatcher = new Dispatcher(resolve(container, Tokens.methods), () => ({ kernel: kernel as Kernel }), {
    maxBatchSize: resolved.rpc.maxBatchSize,
    maxResponseBytes: resolved.rpc.maxResponseBytes,
    batchCostBudget: resolved.rpc.batchCostBudget,
    onInternalError: (method, e) =>
      logger.error(`${method} failed: ${e instanceof Error ? (e.stack ?? e.message) : e}`),
  });
  const contexts: PluginContext[] = [];
  kernel = new Kernel(container, dispatcher, plugins, contexts);

  try {
    for (const plugin of plugins) {
      const ctx: PluginContext = {
        kernel,
        container,
        options: resolved,
        events,
        logger,
        routes: resolve(container, Tokens.routes),
        addMethods: (...defs) => {
          for (const d of defs) resolve(container, Tokens.methods).add(d, plugin.name);
        },
        resolve: (tok) => resolve(container, tok),
        provide: (tok, factory) => container.register(tok, { useFactory: instancePerContainerCachingFactory(factory) }),
      };
      contexts.push(ctx);
      await plugin.register(ctx, plugin.options);
    }
  } catch (e) {
    await kernel.close().catch(() => undefined);
    throw e;
  }
  miner.start();
  return kernel;
}
