// The KernelServices object: a view over the kernel's container (services.ts says what each is).
import { DevTokens } from '../dev/DevServices.js';
import type { Token } from '../di/container.js';
import { KnownContractsToken } from '../exec/KnownContracts.js';
import { IndexTokens } from '../index/IndexTokens.js';
import type { KernelServices } from './services.js';
import { Tokens } from './tokens.js';

/** How the kernel looks services up (its resolve maps a closed kernel to ASHLAR_ERR_KERNEL_CLOSED). */
export interface ServiceLookup {
  resolve<T>(token: Token<T>): T;
  isRegistered(token: Token<unknown>): boolean;
  /** Whether the kernel has begun to close: then every lookup goes to `resolve` (which says so). */
  closed?(): boolean;
}

/** The services object of one kernel (built once, in the Kernel's constructor). */
export function createKernelServices(lookup: ServiceLookup): KernelServices {
  // A service, once built, stays the kernel's for its life (replacing a used one is refused), so
  // each is resolved once: handlers read `services.chain` several times per request, and a
  // container lookup walks tsyringe's registrations (1.3% of eth_blockNumber's CPU, profiled).
  const memo = new Map<Token<unknown>, unknown>();
  const get = <T>(tok: Token<T>): T => {
    if (lookup.closed?.()) return lookup.resolve(tok);
    let v = memo.get(tok) as T | undefined;
    if (v === undefined) {
      v = lookup.resolve(tok);
      memo.set(tok, v);
    }
    return v;
  };
  // An optional service (dev, index) is remembered once found, as `get` does; one not registered
  // is asked again next time (tsyringe's isRegistered + resolve cost ~10 µs: every evm_snapshot
  // and evm_revert reads services.dev).
  const find = <T>(tok: Token<T>): T | undefined => {
    if (lookup.closed?.()) return lookup.isRegistered(tok) ? lookup.resolve(tok) : undefined;
    const v = memo.get(tok) as T | undefined;
    if (v !== undefined) return v;
    if (!lookup.isRegistered(tok)) return undefined;
    const found = lookup.resolve(tok);
    memo.set(tok, found);
    return found;
  };
  return {
    get options() {
      return get(Tokens.options);
    },
    get chain() {
      return get(Tokens.chain);
    },
    get mempool() {
      return get(Tokens.mempool);
    },
    get txs() {
      return get(Tokens.txs);
    },
    get miner() {
      return get(Tokens.miner);
    },
    get executor() {
      return get(Tokens.executor);
    },
    get events() {
      return get(Tokens.events);
    },
    get storage() {
      return get(Tokens.storage);
    },
    get logger() {
      return get(Tokens.logger);
    },
    get knownContracts() {
      return get(KnownContractsToken);
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
