import type { ChainService } from '../chain/ChainService.js';
import { type Token, token } from '../di/container.js';
import type { EventBus } from '../events/EventBus.js';
import type { Executor } from '../exec/Executor.js';
import type { MempoolService } from '../mempool/MempoolService.js';
import type { TxService } from '../mempool/TxService.js';
import type { MinerService } from '../miner/MinerService.js';
import type { MethodRegistry } from '../rpc/MethodRegistry.js';
import type { RouteRegistry } from '../routes/RouteRegistry.js';
import type { RequestActivity } from './RequestActivity.js';
import type { StoragePort } from '../storage/StoragePort.js';
import type { Logger, ResolvedOptions } from './options.js';

/** Typed DI tokens of the kernel's own services. Plugins define theirs the same way. */
export const Tokens = {
  options: token<ResolvedOptions>('ashlar:options'),
  logger: token<Logger>('ashlar:logger'),
  storage: token<StoragePort>('ashlar:storage'),
  events: token<EventBus>('ashlar:events'),
  chain: token<ChainService>('ashlar:chain'),
  mempool: token<MempoolService>('ashlar:mempool'),
  miner: token<MinerService>('ashlar:miner'),
  txs: token<TxService>('ashlar:txs'),
  executor: token<Executor>('ashlar:executor'),
  methods: token<MethodRegistry>('ashlar:methods'),
  routes: token<RouteRegistry>('ashlar:routes'),
  activity: token<RequestActivity>('ashlar:activity'),
} satisfies Record<string, Token<unknown>>;
