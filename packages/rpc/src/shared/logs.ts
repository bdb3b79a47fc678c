import {
  AshlarError,
  ErrorCodes,
  type KernelServices,
  type LogContext,
  type RawLog,
  type StoredBlock,
  type StoredReceipt,
  toData,
  logIndexOf,
  toQuantity,
} from '@ashlar/core';
import { equalsBytes } from '@ethereumjs/util';
import { blockHexContext, formatLog } from '../format/index.js';
import { BloomFilter } from './bloomFilter.js';
import { indexedLogs } from './indexedLogs.js';
import type { RpcLog } from '../format/index.js';
import type { LogFilter } from '../params/index.js';

export function logMatches(log: RawLog, f: LogFilter): boolean {
  const [address, topics] = log;
  if (f.addresses.length > 0 && !f.addresses.some((a) => equalsBytes(a.bytes, address))) return false;
  for (let i = 0; i < f.topics.length; i++) {
    const want = f.topics[i];
    if (want === null || want.length === 0) continue;
    const have = topics[i];
    if (!have || !want.some((t) => equalsBytes(t, have))) return false;
  }
  return true;
}

/** Matching logs of one block, with block-wide log indexes. */
export function blockLogs(sb: StoredBlock, f: LogFilter, removed = false): RpcLog[] {
  const out: RpcLog[] = [];
  const ctx = blockHexContext(sb);
  let logIndex = 0;
  const txs = sb.block.transactions;
  for (let i = 0; i < sb.receipts.length; i++) {
    const logs = sb.receipts[i].logs;
    let txHash: `0x${string}` | undefined;
    for (const log of logs) {
      if (logMatches(log, f)) {
        txHash ??= toData(txs[i].hash());
        out.push(formatLog(log, ctx, txHash, toQuantity(i), logIndex, removed));
      }
      logIndex++;
    }
  }
  return out;
}

/** Matching logs of a block described by its log context and receipts (no block decode). */
function contextLogs(ctx: LogContext, receipts: StoredReceipt[], f: LogFilter): RpcLog[] {
  const out: RpcLog[] = [];
  const hex = {
    blockHash: toData(ctx.hash),
    blockNumber: toQuantity(ctx.number),
    blockTimestamp: toQuantity(ctx.timestamp),
  };
  let logIndex = 0;
  for (let i = 0; i < receipts.length; i++) {
    for (const log of receipts[i].logs) {
      if (logMatches(log, f)) out.push(formatLog(log, hex, toData(ctx.txHashes[i]), toQuantity(i), logIndex, false));
      logIndex++;
    }
  }
  return out;
}

/** Matching logs in a block's receipts, counted without building them. */
function countMatches(receipts: readonly { logs: readonly RawLog[] }[], f: LogFilter): number {
  let n = 0;
  for (const r of receipts) for (const log of r.logs) if (logMatches(log, f)) n++;
  return n;
}

/** Longest stretch a query scans before it lets other clients in. */
const SLICE_MS = 20;

/**
 * Logs of blocks from..to that match, oldest first; more than `max` is an error naming the limit.
 * Blocks are found through the chain's log index (core logs/LogIndex: the blocks holding the
 * filter's addresses or first topics, their logs already in hex); while it is not built, through
 * their log contexts (one range scan over blocks that have logs, a bloom test, receipts read
 * only for candidates); blocks stored before log contexts existed are read whole. Matches are
 * counted first and logs built only when the count is within `max`: an
 * over-limit query costs a scan, not `max` formatted logs (issue #20). Reads from memory resolve
 * in microtasks, so the scan yields to the event loop every 20 ms.
 */
export async function queryLogs(
  services: KernelServices,
  f: LogFilter,
  from: bigint,
  to: bigint,
  max: number,
): Promise<RpcLog[]> {
  const chain = services.chain;
  const bloom = new BloomFilter(f);
  const blocks: StoredBlock[] = [];
  const contexts: { ctx: LogContext; receipts: StoredReceipt[] }[] = [];
  let count = 0;
  let slice = performance.now();
  const tick = async () => {
    if (performance.now() - slice <= SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    slice = performance.now();
  };
  const tally = (n: number) => {
    count += n;
    if (count > max) {
      throw new AshlarError(
        ErrorCodes.LIMIT_EXCEEDED,
        `query returned more than ${max} results; narrow the block range or the filter`,
      );
    }
  };
  const split = chain.logContextsFrom;
  for (let n = from; n <= to && n < split; n++) {
    await tick();
    const sb = await chain.getBlock(n);
    if (!sb || sb.receipts.length === 0 || !bloom.mayMatch(sb.block.header.logsBloom)) continue;
    const matched = countMatches(sb.receipts, f);
    if (matched === 0) continue;
    tally(matched);
    blocks.push(sb);
  }
  if (to >= split) {
    const start = from > split ? from : split;
    const indexed = await indexedLogs(logIndexOf(chain), f, start, to, tally, tick);
    if (indexed !== undefined) {
      const older: RpcLog[] = [];
      for (const sb of blocks) for (const l of blockLogs(sb, f)) older.push(l);
      return older.length === 0 ? indexed : older.concat(indexed);
    }
    for (const ctx of await chain.store.logContexts(start, to)) {
      await tick();
      if (!bloom.mayMatch(ctx.bloom)) continue;
      const receipts = await chain.store.getReceipts(ctx.number);
      if (!receipts) continue;
      const matched = countMatches(receipts, f);
      if (matched === 0) continue;
      tally(matched);
      contexts.push({ ctx, receipts });
    }
  }
  const out: RpcLog[] = [];
  for (const sb of blocks) for (const l of blockLogs(sb, f)) out.push(l);
  for (const { ctx, receipts } of contexts) for (const l of contextLogs(ctx, receipts, f)) out.push(l);
  return out;
}
