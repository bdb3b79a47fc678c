// The services a plugin's register(ctx) and every RPC handler get, as `ctx.services`: typed,
// one object per kernel, and no way back to the Kernel itself (handlers never call methods by
// name, and what a handler may use is this list).
import type { ChainService } from '../chain/ChainService.js';
import { type DevServices, DevTokens } from '../dev/DevServices.js';
import type { Token } from '../di/container.js';
import type { EventBus } from '../events/EventBus.js';
import type { Executor } from '../exec/Executor.js';
import { type KnownContracts, KnownContractsToken } from '../exec/KnownContracts.js';
import type { IndexService } from '../index/IndexService.js';
import { IndexTokens } from '../index/IndexTokens.js';
import type { MempoolService } from '../mempool/MempoolService.js';
import type { TxService } from '../mempool/TxService.js';
import type { MinerService } from '../miner/MinerService.js';
import type { StoragePort } from '../storage/StoragePort.js';
import type { Logger, ResolvedOptions } from './options.js';
import { Tokens } from './tokens.js';

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

/** How the kernel looks services up (its resolve maps a closed kernel to ASHLAR_ERR_KERNEL_CLOSED). */
export interface ServiceLookup {
  resolve<T>(token: Token<T>): T;
  isRegistered(token: Token<unknown>): boolean;
}

/** The services object of one kernel (built once, in the Kernel's constructor). */
export function createKernelServices(lookup: ServiceLookup): KernelServices {
  const find = <T>(tok: Token<T>): T | undefined => (lookup.isRegistered(tok) ? lookup.resolve(tok) : undefined);
  return {
    get options() {
      return lookup.resolve(Tokens.options);
    },
    get chain() {
      return lookup.resolve(Tokens.chain);
    },
    get mempool() {
      return lookup.resolve(Tokens.mempool);
    },
    get txs() {
      return lookup.resolve(Tokens.txs);
    },
    get miner() {
      return lookup.resolve(Tokens.miner);
    },
    get executor() {
      return lookup.resolve(Tokens.executor);
    },
    get events() {
      return lookup.resolve(Tokens.events);
    },
    get storage() {
      return lookup.resolve(Tokens.storage);
    },
    get logger() {
      return lookup.resolve(Tokens.logger);
    },
    get knownContracts() {
      return lookup.resolve(KnownContractsToken);
    },
    get index() {
      return find(IndexTokens.index);
    },
    get dev() {
      return find(DevTokens.services);
    },
    resolve: (tok) => lookup.resolve(tok),
    find,
  };
}
