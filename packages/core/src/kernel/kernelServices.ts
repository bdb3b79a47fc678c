import type { ChainService } from '../chain/ChainService.js';
import { type DependencyContainer, resolve } from '../di/container.js';
import type { EventBus } from '../events/EventBus.js';
import { Executor } from '../exec/Executor.js';
import { KnownContracts, KnownContractsToken } from '../exec/KnownContracts.js';
import { MempoolService } from '../mempool/MempoolService.js';
import { TxService } from '../mempool/TxService.js';
import { MinerService } from '../miner/MinerService.js';
import { MethodRegistry } from '../rpc/MethodRegistry.js';
import { RouteRegistry } from '../routes/RouteRegistry.js';
import { type Logger, type ResolvedOptions, minerSettingsOf } from './options.js';
import type { ServiceProviders } from './ServiceProviders.js';
import { Tokens } from './tokens.js';

/** What the kernel opens itself before any plugin runs: values, not factories. */
export interface KernelInputs {
  options: ResolvedOptions;
  logger: Logger;
  events: EventBus;
  chain: ChainService;
  /** Console lines of eth_estimateGas's first run too (`consoleInEstimates`). */
  consoleInEstimates: boolean;
}

/**
 * The kernel's own services, each by factory under its token: built on first resolve, each
 * resolving what it needs from the container, so a plugin that replaces one (`ctx.provide(
 * Tokens.mempool, …)`) is what the others get too.
 */
export function registerKernelServices(p: ServiceProviders, k: KernelInputs): void {
  const chain = (c: DependencyContainer) => resolve(c, Tokens.chain);
  p.provide(Tokens.methods, () => new MethodRegistry());
  p.provide(Tokens.routes, () => new RouteRegistry());
  p.provide(Tokens.mempool, () => new MempoolService());
  // Contract names and ABIs plugins know (the explorer's verified contracts): revert messages name custom errors.
  p.provide(KnownContractsToken, () => new KnownContracts());
  p.provide(
    Tokens.miner,
    (c) => new MinerService(chain(c), resolve(c, Tokens.mempool), k.events, k.logger, minerSettingsOf(k.options)),
  );
  p.provide(Tokens.txs, (c) => new TxService(chain(c), resolve(c, Tokens.mempool), resolve(c, Tokens.miner), k.events));
  p.provide(
    Tokens.executor,
    (c) =>
      new Executor(
        chain(c),
        k.options.rpc.callGasCap,
        k.options.rpc.callTimeoutMs,
        resolve(c, Tokens.miner),
        { events: k.events, estimates: k.consoleInEstimates },
        resolve(c, KnownContractsToken),
      ),
  );
}
