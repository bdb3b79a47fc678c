import { type StoragePort, SUBLEVELS } from '@ashlar/core';
import type { VerifiedContract } from './types.js';

/** The two calls made on the sublevel (abstract-level's types stay inside core). */
interface Sub {
  iterator(): AsyncIterable<[Uint8Array, Uint8Array]>;
  batch(ops: { type: 'put'; key: Uint8Array; value: Uint8Array }[]): Promise<void>;
}

const toKey = (address: string) => Uint8Array.from(Buffer.from(address.slice(2), 'hex'));

/**
 * Verified contracts, kept with the chain in its database (sublevel `vc`, one JSON record per
 * address) and all in memory: a dev chain has few, and every address reference on every page
 * asks whether its address is verified.
 */
export class VerifiedStore {
  private readonly sub: Sub;
  private readonly byAddress = new Map<string, VerifiedContract>();
  /** Addresses in verification order: the /smart-contracts list's `smart_contract_id`. */
  private order: string[] = [];

  private constructor(port: StoragePort) {
    this.sub = port.db.sublevel(SUBLEVELS.verifiedContracts, {
      keyEncoding: 'view',
      valueEncoding: 'view',
    }) as unknown as Sub;
  }

  static async open(port: StoragePort): Promise<VerifiedStore> {
    const store = new VerifiedStore(port);
    for await (const [, value] of store.sub.iterator()) {
      const rec = JSON.parse(Buffer.from(value).toString('utf8')) as VerifiedContract;
      store.byAddress.set(rec.address, rec);
    }
    store.order = [...store.byAddress.values()]
      .sort((a, b) => (a.verifiedAt < b.verifiedAt ? -1 : a.verifiedAt > b.verifiedAt ? 1 : 0))
      .map((r) => r.address);
    return store;
  }

  get(address: string): VerifiedContract | undefined {
    return this.byAddress.get(address.toLowerCase());
  }

  get size(): number {
    return this.byAddress.size;
  }

  /** Oldest first; the list's id of a record is its position + 1. */
  all(): VerifiedContract[] {
    return this.order.map((a) => this.byAddress.get(a)!);
  }

  idOf(address: string): number {
    return this.order.indexOf(address) + 1;
  }

  /** Stores a record in one write; memory changes only once it is written. */
  async put(rec: VerifiedContract): Promise<void> {
    await this.sub.batch([
      { type: 'put', key: toKey(rec.address), value: new TextEncoder().encode(JSON.stringify(rec)) },
    ]);
    if (!this.byAddress.has(rec.address)) this.order.push(rec.address);
    this.byAddress.set(rec.address, rec);
  }
}
