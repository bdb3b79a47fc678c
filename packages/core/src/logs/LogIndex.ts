import type { ChainService } from '../chain/ChainService.js';
import type { StoredBlock } from '../chain/types.js';
import { HexLogCache } from './HexLogCache.js';
import { type HexBlockLogs, hexLogsOfBlock, hexLogsOfContext } from './hexBlockLogs.js';
import { LogPostings } from './LogPostings.js';

export interface LogIndexOptions {
  /** Most logs kept rendered in hex (least recently used blocks go first); default 20,000. */
  maxCachedLogs?: number;
  /**
   * A chain this much longer than where its log contexts start is indexed in the background on
   * the first query (which walks its range meanwhile); a shorter one is indexed before
   * answering. Default 50,000 blocks.
   */
  buildInlineBlocks?: number;
}

/** Blocks read per step of a build, between which it lets other work run. */
const BUILD_CHUNK = 2_048n;
const MAX_BLOCK = BigInt(Number.MAX_SAFE_INTEGER);

/** What eth_getLogs asks of the index: the blocks worth reading in a range. */
export interface LogCandidates {
  /** First block the postings cover; blocks below it (stored before log contexts existed) are not named. */
  coveredFrom: bigint;
  /** Blocks from max(from, coveredFrom) to `to` that may hold a match, ascending. */
  blocks: number[];
}

/**
 * eth_getLogs' view of the chain, in memory: posting lists of the blocks that hold logs of each
 * address and of each first topic (LogPostings), and the hex of recent blocks' logs
 * (HexLogCache: rendered as each block is committed, and as older blocks are read). Kept in
 * step on every commit and revert, so the first query on a live chain finds it ready; a chain
 * opened from storage is indexed on its first query (one scan of the log contexts and receipts). Anything out of step (a block committed below one already
 * indexed) drops the postings, rebuilt on the next query: never a wrong answer.
 */
export class LogIndex {
  private postings: LogPostings | undefined;
  private coveredFrom = 0n;
  /** Counts commits and reverts: a build or a read that saw it change is stale. */
  private generation = 0;
  private building: Promise<void> | undefined;
  /** Scans of storage made to build the postings (a live chain needs none; tests check it). */
  scans = 0;
  private readonly cache: HexLogCache;
  private readonly buildInlineBlocks: bigint;

  constructor(
    private readonly chain: ChainService,
    options: LogIndexOptions = {},
  ) {
    this.cache = new HexLogCache(options.maxCachedLogs ?? 20_000);
    this.buildInlineBlocks = BigInt(options.buildInlineBlocks ?? 50_000);
    chain.onCommitted((sb) => this.committed(sb));
    chain.events.on('revert', ({ toNumber, removed }) => this.reverted(toNumber, removed));
    // A chain of its genesis alone has no logs: its postings start complete, kept from here on.
    if (chain.head.number === chain.genesis.number && chain.logContextsFrom <= chain.genesis.number) {
      this.postings = new LogPostings();
      this.coveredFrom = chain.logContextsFrom;
    }
  }

  /**
   * Blocks in from..to that may hold logs of one of `addresses` (any when empty) with a first
   * topic in `topic0s` (any when null); keys lower-case 0x-hex. Undefined while the postings
   * are not built (a long chain's first query): the caller walks the range instead.
   */
  async candidates(
    from: bigint,
    to: bigint,
    addresses: readonly string[],
    topic0s: readonly string[] | null,
  ): Promise<LogCandidates | undefined> {
    const postings = await this.ready();
    if (postings === undefined || to > MAX_BLOCK) return undefined;
    const coveredFrom = this.coveredFrom;
    const lo = from > coveredFrom ? from : coveredFrom;
    if (lo > to) return { coveredFrom, blocks: [] };
    return { coveredFrom, blocks: postings.blocks(Number(lo), Number(to), addresses, topic0s) };
  }

  /**
   * The hex logs of block `n` when they are at hand without a read: cached, or rendered from
   * the decoded block in the chain's block cache. Undefined means: read them with `hexLogs`.
   */
  hexLogsAtHand(n: number): HexBlockLogs | undefined {
    const hit = this.cache.get(n);
    if (hit !== undefined) return hit;
    const chain = this.chain;
    const number = BigInt(n);
    const sb = number === chain.head.number ? chain.head : chain.store.cachedBlock(number);
    if (sb === undefined) return undefined;
    const out = hexLogsOfBlock(sb);
    this.cache.set(out);
    return out;
  }

  /** The hex logs of block `n`: at hand, else rendered from its log context and receipts in storage. */
  async hexLogs(n: number): Promise<HexBlockLogs | undefined> {
    const near = this.hexLogsAtHand(n);
    if (near !== undefined) return near;
    const chain = this.chain;
    const generation = this.generation;
    const number = BigInt(n);
    const [ctx, receipts] = await Promise.all([chain.store.getLogContext(number), chain.store.getReceipts(number)]);
    if (ctx === undefined || receipts === undefined) return undefined;
    const out = hexLogsOfContext(ctx, receipts);
    // A revert while reading may have replaced the block: answer it, but do not keep it.
    if (generation === this.generation) this.cache.set(out);
    return out;
  }

  /** True once the postings are built and in step with the chain. */
  get isReady(): boolean {
    return this.postings !== undefined && this.coveredFrom === this.chain.logContextsFrom;
  }

  /** Builds the postings if they are not (awaits a build of any length). */
  async build(): Promise<boolean> {
    if (!this.isReady) await this.startBuild();
    return this.isReady;
  }

  private async ready(): Promise<LogPostings | undefined> {
    if (this.isReady) return this.postings;
    const build = this.startBuild();
    if (this.chain.head.number - this.chain.logContextsFrom <= this.buildInlineBlocks) await build;
    return this.isReady ? this.postings : undefined;
  }

  private startBuild(): Promise<void> {
    this.building ??= this.scan().finally(() => {
      this.building = undefined;
    });
    return this.building;
  }

  /** Reads every block with logs from the log contexts' start to the head; retried when the chain moved meanwhile. */
  private async scan(): Promise<void> {
    const chain = this.chain;
    this.postings = undefined;
    this.scans++;
    for (let attempt = 0; attempt < 3 && !chain.isClosed; attempt++) {
      const generation = this.generation;
      const from = chain.logContextsFrom;
      const head = chain.head.number;
      const fresh = new LogPostings();
      let ok = head <= MAX_BLOCK;
      try {
        for (let lo = from; ok && lo <= head && generation === this.generation; lo += BUILD_CHUNK) {
          const hi = lo + BUILD_CHUNK - 1n < head ? lo + BUILD_CHUNK - 1n : head;
          for (const ctx of await chain.store.logContexts(lo, hi)) {
            const receipts = await chain.store.getReceipts(ctx.number);
            if (receipts !== undefined && !fresh.add(Number(ctx.number), receipts)) ok = false;
          }
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } catch {
        // Storage closed or failing: stay unbuilt, queries walk.
        return;
      }
      if (!ok) return;
      if (generation === this.generation) {
        this.postings = fresh;
        this.coveredFrom = from;
        return;
      }
    }
  }

  private committed(sb: StoredBlock): void {
    this.generation++;
    this.cache.delete(Number(sb.number));
    try {
      // Rendered now, while the block is at hand: a few microseconds a log here, where a query
      // would read and decode it later (the first eth_getLogs over the chain costs no rendering).
      if (hasLogs(sb)) this.cache.set(hexLogsOfBlock(sb));
    } catch {
      this.cache.delete(Number(sb.number));
    }
    const postings = this.postings;
    if (postings === undefined) return;
    try {
      if (sb.number > MAX_BLOCK || !postings.add(Number(sb.number), sb.receipts)) this.postings = undefined;
    } catch {
      // Never fail a commit for an index: drop it, the next query rebuilds it.
      this.postings = undefined;
    }
  }

  private reverted(toNumber: bigint, removed: readonly StoredBlock[]): void {
    this.generation++;
    for (const sb of removed) this.cache.delete(Number(sb.number));
    const postings = this.postings;
    if (postings === undefined) return;
    const n = Number(toNumber);
    postings.dropAbove(
      n,
      removed.map((sb) => sb.receipts),
    );
    if (postings.last > n) this.postings = undefined;
  }
}

function hasLogs(sb: StoredBlock): boolean {
  for (const r of sb.receipts) if (r.logs.length > 0) return true;
  return false;
}

const indexes = new WeakMap<ChainService, LogIndex>();

/**
 * The log index of a chain, made on first use. Make it when the chain opens (the rpc:eth
 * plugin does) so that it follows the chain from its first block instead of scanning it later.
 */
export function logIndexOf(chain: ChainService): LogIndex {
  let index = indexes.get(chain);
  if (index === undefined) {
    index = new LogIndex(chain);
    indexes.set(chain, index);
  }
  return index;
}
