import { type CacheOpts, CacheType, Caches, type CachesStateManagerOpts } from '@ethereumjs/statemanager';
import type { Address } from '@ethereumjs/util';
import { AccountObjectCache } from './AccountObjectCache.js';
import { CodeObjectCache } from './CodeObjectCache.js';
import { SlotCache } from './SlotCache.js';

/** How many entries each cache is meant to hold (0: no such cache), as @ethereumjs's Caches takes them. */
export interface StateCacheSizes {
  account?: { size?: number };
  storage?: { size?: number };
  code?: { size?: number };
}

const DEFAULT_SIZES = { account: 100_000, storage: 20_000, code: 20_000 };

/**
 * The head state's caches, in the shape MerkleStateManager drives (@ethereumjs's `Caches`):
 * account, storage and code caches with checkpoint, commit, revert, clear and deleteAccount.
 * Sizes follow @ethereumjs: 0 means no such cache; any other size is a setting only (its
 * ordered maps ignore it too), ChainStateManager's `boundCaches` is what bounds them.
 */
export class StateCaches {
  readonly account?: AccountObjectCache;
  readonly storage?: SlotCache;
  readonly code?: CodeObjectCache;
  readonly settings: Record<'account' | 'code' | 'storage', CacheOpts>;

  constructor(sizes: StateCacheSizes = {}) {
    const setting = (size: number | undefined, fallback: number): CacheOpts => ({
      size: size ?? fallback,
      type: CacheType.ORDERED_MAP,
    });
    this.settings = {
      account: setting(sizes.account?.size, DEFAULT_SIZES.account),
      storage: setting(sizes.storage?.size, DEFAULT_SIZES.storage),
      code: setting(sizes.code?.size, DEFAULT_SIZES.code),
    };
    if (this.settings.account.size !== 0) this.account = new AccountObjectCache();
    if (this.settings.storage.size !== 0) this.storage = new SlotCache();
    if (this.settings.code.size !== 0) this.code = new CodeObjectCache();
  }

  /** StateCaches with the sizes of @ethereumjs Caches (the same sizes when given StateCaches). */
  static from(caches: Caches | StateCaches): StateCaches {
    if (caches instanceof StateCaches) return caches;
    const s = caches.settings;
    return new StateCaches({ account: s.account, storage: s.storage, code: s.code });
  }

  checkpoint(): void {
    this.account?.checkpoint();
    this.storage?.checkpoint();
    this.code?.checkpoint();
  }

  commit(): void {
    this.account?.commit();
    this.storage?.commit();
    this.code?.commit();
  }

  revert(): void {
    this.account?.revert();
    this.storage?.revert();
    this.code?.revert();
  }

  clear(): void {
    this.account?.clear();
    this.storage?.clear();
    this.code?.clear();
  }

  deleteAccount(address: Address): void {
    this.code?.del(address);
    this.account?.del(address);
    this.storage?.clearStorage(address);
  }

  /**
   * Empty @ethereumjs Caches of the same sizes, for MerkleStateManager.shallowCopy (which builds
   * a stock MerkleStateManager, whose reads expect @ethereumjs's cache elements).
   */
  shallowCopy(_downlevelCaches: boolean): Caches | undefined {
    const opts: CachesStateManagerOpts = {};
    let any = false;
    for (const kind of ['account', 'storage', 'code'] as const) {
      opts[kind] = { size: this.settings[kind].size, type: CacheType.ORDERED_MAP };
      if (this.settings[kind].size !== 0) any = true;
    }
    return any ? new Caches(opts) : undefined;
  }
}
