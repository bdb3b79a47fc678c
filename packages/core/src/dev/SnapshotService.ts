import { randomBytes } from 'node:crypto';
import type { WithdrawalData } from '@ethereumjs/util';
import type { ChainService } from '../chain/ChainService.js';
import type { ResolvedForkOptions } from '../fork/forkOptions.js';
import { openFork } from '../fork/openFork.js';
import type { ResolvedOptions } from '../kernel/options.js';
import type { MempoolService } from '../mempool/MempoolService.js';
import type { PendingTx } from '../mempool/types.js';
import type { MinerService } from '../miner/MinerService.js';
import { META } from '../storage/keys.js';
import { concat, u64 } from '../util/hex.js';
import type { Impersonation } from './Impersonation.js';
import type { ReservedBlocks } from './ReservedBlocks.js';

/** Everything evm_revert puts back: the head and its state, the pool, and the miner's clock. */
interface Snapshot {
  id: number;
  number: bigint;
  stateRoot: Uint8Array;
  pool: PendingTx[];
  /** Wall-clock milliseconds when taken: a revert also takes back the time that passed since. */
  takenAt: number;
  timeOffset: bigint;
  nextTimestamp?: bigint;
  nextBaseFee?: bigint;
  nextPrevRandao?: Uint8Array;
  timestampInterval?: bigint;
  withdrawals: WithdrawalData[];
  coinbase: string;
}

/**
 * evm_snapshot / evm_revert with Hardhat's one-shot ids (1, 2, …; reverting to an id removes it
 * and every later one), and hardhat_reset. A revert costs O(blocks removed): the state is
 * content-addressed, so going back is setting the old root.
 */
export class SnapshotService {
  private snapshots: Snapshot[] = [];
  private nextId = 1;
  /** hardhat_metadata's instanceId: new on every start and reset. */
  instanceId: Uint8Array = randomBytes(32);

  constructor(
    private readonly chain: ChainService,
    private readonly mempool: MempoolService,
    private readonly miner: MinerService,
    private readonly reserved: ReservedBlocks,
    private readonly impersonation: Impersonation,
    private readonly options: ResolvedOptions,
  ) {}

  /** The snapshots held, oldest first: id and the head's number when taken (anvil_metadata). */
  list(): { id: number; number: bigint }[] {
    return this.snapshots.map((s) => ({ id: s.id, number: s.number }));
  }

  take(): Promise<number> {
    return this.chain.exclusive(async () => {
      const miner = this.miner;
      const id = this.nextId++;
      this.snapshots.push({
        id,
        number: this.chain.head.number,
        stateRoot: this.chain.headStateRoot,
        pool: this.mempool.all().sort((a, b) => a.seq - b.seq),
        takenAt: Date.now(),
        timeOffset: miner.timeOffset,
        nextTimestamp: miner.nextTimestamp,
        nextBaseFee: miner.nextBaseFee,
        nextPrevRandao: miner.nextPrevRandao,
        timestampInterval: miner.timestampInterval,
        withdrawals: [...miner.pendingWithdrawals],
        coinbase: miner.coinbase,
      });
      return id;
    });
  }

  /** Goes back to snapshot `id`; false (nothing changes) when no such snapshot is held. */
  revert(id: number): Promise<boolean> {
    return this.chain.exclusive(async () => {
      const index = this.snapshots.findIndex((s) => s.id === id);
      if (index < 0) return false;
      const s = this.snapshots[index];
      await this.moveHead(s.number, s.stateRoot);
      this.mempool.clear();
      for (const ptx of s.pool) this.mempool.add(ptx);
      const miner = this.miner;
      // As Hardhat: now + new offset = snapshot time + old offset, so time spent after the
      // snapshot is taken back along with the blocks.
      miner.timeOffset = s.timeOffset + BigInt(Math.ceil((s.takenAt - Date.now()) / 1000));
      miner.nextTimestamp = s.nextTimestamp;
      miner.nextBaseFee = s.nextBaseFee;
      miner.nextPrevRandao = s.nextPrevRandao;
      miner.timestampInterval = s.timestampInterval;
      miner.pendingWithdrawals = [...s.withdrawals];
      miner.coinbase = s.coinbase;
      this.snapshots.splice(index);
      return true;
    });
  }

  /**
   * hardhat_reset / anvil_reset. Without `fork`: back to genesis with the node's own options; the
   * chain's blocks and lookups go in one batch (O(blocks)) and the state returns to the genesis
   * root. A forked chain leaves its fork for the node's own genesis (as Anvil's anvil_reset).
   * With `fork`: a fork of that upstream block takes the chain's place (docs/forking.md).
   */
  reset(fork?: ResolvedForkOptions): Promise<void> {
    return this.chain.exclusive(async () => {
      const current = this.chain;
      if (fork || current.fork) {
        const next = fork ? await openFork(fork, current.storage, current.logger, { fresh: true }) : undefined;
        try {
          await current.reinit(next);
        } catch (e) {
          await next?.close().catch(() => undefined);
          throw e;
        }
      } else await this.moveHead(0n, current.genesis.block.header.stateRoot);
      this.mempool.clear();
      this.snapshots = [];
      this.nextId = 1;
      this.instanceId = randomBytes(32);
      this.impersonation.clear();
      const miner = this.miner;
      const { chain, mining } = this.options;
      miner.timeOffset = 0n;
      miner.nextTimestamp = undefined;
      miner.nextBaseFee = undefined;
      miner.nextPrevRandao = undefined;
      miner.timestampInterval = undefined;
      miner.pendingWithdrawals = [];
      miner.coinbase = chain.coinbase;
      miner.gasLimit = chain.gasLimit;
      miner.minGasPrice = 0n;
      miner.automine = mining.automine;
      miner.setInterval(mining.blockTime);
    });
  }

  private async moveHead(n: bigint, stateRoot: Uint8Array): Promise<void> {
    const chain = this.chain;
    await chain.revertTo(n, stateRoot);
    if (this.reserved.isReserved(n)) {
      // Reserved ranges live in memory: the persisted head names the built block below them,
      // so a persistent node reopened later finds a block it stores.
      const below = await chain.getBlock(this.reserved.storedAtOrBelow(n));
      if (below) {
        await chain.store.write([
          { type: 'put', sublevel: chain.store.meta, key: META.head, value: concat(u64(below.number), below.hash) },
        ]);
      }
    }
  }
}
