import { bytesToHex } from '@ethereumjs/util';
import type { Explorer } from '../Explorer.js';
import { blockFees } from '../serializers/block.js';
import { dec } from '../serializers/format.js';
import { firstBlockAtOrAfter } from '../time/blockAtTime.js';
import type { RouteContext } from './context.js';

const DAY = 86_400n;
/** At most this many of the window's newest blocks are summed (a dense day costs no more than this). */
export const STATS_BLOCK_CAP = 10_000n;

/** Sums over blocks from..head (inclusive). */
interface Window {
  from: bigint;
  head: bigint;
  headHash: string;
  count: bigint;
  fees: bigint;
}

/**
 * Transactions and fees of the 24 hours of block time up to the head (Blockscout counts the last
 * 24 hours of its clock; a dev chain's clock is its blocks', which time travel moves), over at
 * most the window's newest STATS_BLOCK_CAP blocks. Kept between requests and moved with the
 * head: new blocks are added and those that left the window subtracted, so an automining chain
 * does not resum the day for each block. A reorg (evm_revert) below the kept head recomputes.
 */
export class Last24h {
  private kept: Window | undefined;

  constructor(private readonly ex: Explorer) {}

  async get(): Promise<{ count: bigint; fees: bigint }> {
    const ex = this.ex;
    const head = ex.head;
    const headHash = bytesToHex(head.hash);
    const start = await firstBlockAtOrAfter(ex, head.block.header.timestamp - DAY);
    const from = head.number - start + 1n > STATS_BLOCK_CAP ? head.number - STATS_BLOCK_CAP + 1n : start;
    let w = this.kept;
    if (w && !(await this.stillCanonical(w))) w = undefined;
    if (!w || from < w.from || from > w.head) w = { from, head: from - 1n, headHash: '', count: 0n, fees: 0n };
    for (let n = w.from; n < from; n++) await this.add(w, n, -1n);
    for (let n = w.head + 1n; n <= head.number; n++) await this.add(w, n, 1n);
    w.from = from;
    w.head = head.number;
    w.headHash = headHash;
    this.kept = w;
    return { count: w.count, fees: w.fees };
  }

  private async stillCanonical(w: Window): Promise<boolean> {
    if (w.head > this.ex.head.number) return false;
    const sb = await this.ex.block(w.head);
    return sb !== undefined && bytesToHex(sb.hash) === w.headHash;
  }

  private async add(w: Window, n: bigint, sign: bigint): Promise<void> {
    const sb = await this.ex.block(n);
    if (!sb) return;
    w.count += sign * BigInt(sb.block.transactions.length);
    w.fees += sign * blockFees(sb).txFees;
  }
}

/** /transactions/stats (Blockscout's TransactionController.stats). */
export function transactionStatsRoutes({ ex, r }: RouteContext): void {
  const window = new Last24h(ex);
  r.get('/transactions/stats', async () => {
    const { count, fees } = await window.get();
    return {
      transactions_count_24h: dec(count),
      pending_transactions_count: dec(BigInt(ex.services.mempool.size)),
      transaction_fees_sum_24h: dec(fees),
      transaction_fees_avg_24h: dec(count === 0n ? 0n : fees / count),
    };
  });
}
