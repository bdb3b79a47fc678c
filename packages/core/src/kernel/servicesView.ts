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
