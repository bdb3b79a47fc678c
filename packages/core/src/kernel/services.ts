// The services a plugin's register(ctx) and every RPC handler get, as `ctx.services`: typed,
// one object per kernel, and no way back to the Kernel itself (handlers never call methods by
// name, and what a handler may use is this list). Types only: servicesView.ts builds it.
import type { ChainService } from '../chain/ChainService.js';
import type { DevServices } from '../dev/DevServices.js';
import type { Token } from '../di/container.js';
import type { EventBus } from '../events/EventBus.js';
import type { Executor } from '../exec/Executor.js';
import type { KnownContracts } from '../exec/KnownContracts.js';
import type { IndexService } from '../index/IndexService.js';
import type { MempoolService } from '../mempool/MempoolService.js';
import type { TxService } from '../mempool/TxService.js';
import type { MinerService } from '../miner/MinerService.js';
import type { StoragePort } from '../storage/StoragePort.js';
import type { Logger, ResolvedOptions } from './options.js';

/** A kernel's services. Each read looks the service up, so a replaced one (ctx.provide) is seen. */
export interface KernelServices {
  /** The node's resolved options (chain, mining, rpc limits, send defaults). */
  readonly options: ResolvedOptions;
  /** Blocks, receipts, the state trie and the chain's lock (`chain.exclusive`); state reads take `chain`. */
  readonly chain: ChainService;
  /** The transaction pool: pending and queued transactions by sender and nonce. */
  readonly mempool: MempoolService;
  /** Transaction intake: checks a signed transaction, pools it and (under automine) mines it. */
  readonly txs: TxService;
  /** Block production: automine, interval mining, the next block's timestamp, base fee and gas limit. */
  readonly miner: MinerService;
  /** eth_call / eth_estimateGas / access lists at a block, with the node's gas cap and time limit. */
  readonly executor: Executor;
  /** The kernel's events (`block`, `logs`, `pendingTransaction`, `revert`, `console`, `close`). */
  readonly events: EventBus;
  /** Where the chain is kept (LevelDB or memory). */
  readonly storage: StoragePort;
  readonly logger: Logger;
  /** Names and ABIs of known contracts, so revert messages name custom errors; plugins add resolvers. */
  readonly knownContracts: KnownContracts;
  /**
   * The explorer index (address history, token transfers, counters), or undefined when no
   * mounted plugin installed it (the `explorer` plugin does).
   */
  readonly index: IndexService | undefined;
  /**
   * Snapshots, reserved blocks, impersonation and the address book, or undefined when no plugin
   * installed them (`rpc:dev` and `rpc:evm-mining` do).
   */
  readonly dev: DevServices | undefined;
  /** A plugin's own service by its token; fails naming the token when no mounted plugin provides it. */
  resolve<T>(token: Token<T>): T;
  /** A plugin's own service by its token, or undefined when no mounted plugin provides it. */
  find<T>(token: Token<T>): T | undefined;
}
