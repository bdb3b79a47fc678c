import { equalsBytes } from '@ethereumjs/util';
import type { ChainService } from '../chain/ChainService.js';
import type { StoredBlock, TxLocation } from '../chain/types.js';
import { toData } from '../util/hex.js';

/** Where a recent transaction sits. */
interface TxSpot {
  number: bigint;
  index: number;
}

/**
 * Transaction hash → block and position for the transactions of recent blocks, in memory:
 * eth_getTransactionReceipt and eth_getTransactionByHash on them take one map lookup and the
 * block from the chain's block cache, instead of a storage read (the `txs` sublevel) first.
 * Filled on commit, emptied of reverted blocks, bounded by transactions held (oldest blocks go
 * first); anything else is looked up in storage as before.
 *
 * A chain in memory storage keeps nothing here: its `txs` table is in memory already (see
 * MemoryBlockTables), a lookup there costs what one here does, and what this map kept per
 * transaction (a hex key, a spot, a list per block) lived for 32,768 transactions, so the
 * garbage collector copied it out of the young generation twice and marked it ever after.
 */
export class RecentTxs {
  private readonly spots = new Map<string, TxSpot>();
  /** Hash keys of each block held, oldest first (Map keeps insertion order). */
  private readonly blocks = new Map<bigint, string[]>();
  private held = 0;
  /** False for a chain in memory storage: nothing is kept, every lookup reads the chain's table. */
  private readonly follows: boolean;

  constructor(
    private readonly chain: ChainService,
    private readonly maxTxs = 32_768,
  ) {
    this.follows = chain.storage.kind !== 'memory';
    if (!this.follows) return;
    chain.onCommitted((sb) => this.committed(sb));
    chain.events.on('revert', ({ removed }) => {
      for (const sb of removed) this.forget(sb.number);
    });
  }

  /** The mined transaction with this hash: from the recent blocks, else from storage. */
  async locate(hash: Uint8Array): Promise<TxLocation | undefined> {
    if (!this.follows) return this.locateStored(hash);
    const spot = this.spots.get(toData(hash));
    if (spot !== undefined && spot.number <= this.chain.head.number) {
      const block = await this.chain.getBlock(spot.number);
      const tx = block?.block.transactions[spot.index];
      if (block !== undefined && tx !== undefined && equalsBytes(tx.hash(), hash)) return { block, index: spot.index };
    }
    return this.chain.getTransactionLocation(hash);
  }

  /** A memory chain's transaction: its `txs` table read without a promise, then the block (from the block cache). */
  private async locateStored(hash: Uint8Array): Promise<TxLocation | undefined> {
    const chain = this.chain;
    const loc = chain.store.txLocationNow(hash);
    if (loc === null) return chain.getTransactionLocation(hash);
    if (loc === undefined || loc.number > chain.head.number) return undefined;
    const block = await chain.getBlock(loc.number);
    const tx = block?.block.transactions[loc.index];
    if (block === undefined || tx === undefined || !equalsBytes(tx.hash(), hash)) return undefined;
    return { block, index: loc.index };
  }

  private committed(sb: StoredBlock): void {
    this.forget(sb.number);
    const txs = sb.block.transactions;
    if (txs.length === 0 || txs.length > this.maxTxs) return;
    const keys: string[] = new Array(txs.length);
    for (let i = 0; i < txs.length; i++) {
      const key = toData(txs[i].hash());
      keys[i] = key;
      this.spots.set(key, { number: sb.number, index: i });
    }
    this.blocks.set(sb.number, keys);
    this.held += keys.length;
    while (this.held > this.maxTxs) {
      const oldest = this.blocks.keys().next();
      if (oldest.done) break;
      this.forget(oldest.value);
    }
  }

  private forget(n: bigint): void {
    const keys = this.blocks.get(n);
    if (keys === undefined) return;
    this.blocks.delete(n);
    this.held -= keys.length;
    for (const key of keys) {
      const spot = this.spots.get(key);
      if (spot !== undefined && spot.number === n) this.spots.delete(key);
    }
  }
}

const recent = new WeakMap<ChainService, RecentTxs>();

/** The recent-transaction lookup of a chain, made on first use (the rpc:eth plugin makes it with the chain). */
export function recentTxsOf(chain: ChainService): RecentTxs {
  let r = recent.get(chain);
  if (r === undefined) {
    r = new RecentTxs(chain);
    recent.set(chain, r);
  }
  return r;
}
