import { type HexBlockLogs, type HexLog, type LogIndex, toData } from '@ashlar/core';
import type { RpcLog } from '../format/index.js';
import type { LogFilter } from '../params/index.js';

/** A filter's values as the index keys them: lower-case 0x-hex, each position a list or null (any). */
interface HexFilter {
  addresses: readonly string[];
  /** Set of the addresses when there are many (a list scan is faster for a few). */
  addressSet: Set<string> | undefined;
  topics: (readonly string[] | null)[];
}

const SET_FROM = 8;

function hexFilter(f: LogFilter): HexFilter {
  const addresses = f.addresses.map((a) => a.toString().toLowerCase());
  return {
    addresses,
    addressSet: addresses.length >= SET_FROM ? new Set(addresses) : undefined,
    topics: f.topics.map((pos) => (pos === null || pos.length === 0 ? null : pos.map((t) => toData(t)))),
  };
}

function oneOf(values: readonly string[], v: string): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] === v) return true;
  return false;
}

function hexLogMatches(log: HexLog, f: HexFilter): boolean {
  if (f.addresses.length > 0) {
    if (f.addressSet !== undefined ? !f.addressSet.has(log.address) : !oneOf(f.addresses, log.address)) return false;
  }
  const topics = f.topics;
  for (let i = 0; i < topics.length; i++) {
    const want = topics[i];
    if (want === null) continue;
    const have = log.topics[i];
    if (have === undefined || !oneOf(want, have)) return false;
  }
  return true;
}

/** The RPC log object: strings copied from the cached hex, nothing encoded. */
function rpcLogOf(log: HexLog, block: HexBlockLogs): RpcLog {
  return {
    address: log.address,
    topics: log.topics.slice(),
    data: log.data,
    blockNumber: block.blockNumber,
    transactionHash: log.transactionHash,
    transactionIndex: log.transactionIndex,
    blockHash: block.blockHash,
    blockTimestamp: block.blockTimestamp,
    logIndex: log.logIndex,
    removed: false,
  };
}

/** How often (in blocks) a query looks at the clock to let other clients in. */
const TICK_EVERY = 256;

/**
 * Matching logs of blocks from..to through the chain's log index: only the blocks its postings
 * name (an address's or a first topic's) are read, and their logs come from the hex cache.
 * `count` is called with each block's number of matches before they are kept (it throws past
 * the query's limit). Undefined when the index cannot answer yet (the caller walks instead).
 */
export async function indexedLogs(
  index: LogIndex,
  filter: LogFilter,
  from: bigint,
  to: bigint,
  count: (n: number) => void,
  tick: () => Promise<void>,
): Promise<RpcLog[] | undefined> {
  const f = hexFilter(filter);
  const topic0 = f.topics.length > 0 ? f.topics[0] : null;
  const found = await index.candidates(from, to, f.addresses, topic0);
  if (found === undefined || found.coveredFrom > from) return undefined;
  const out: RpcLog[] = [];
  const blocks = found.blocks;
  for (let b = 0; b < blocks.length; b++) {
    if (b % TICK_EVERY === TICK_EVERY - 1) await tick();
    const n = blocks[b];
    const block = index.hexLogsAtHand(n) ?? (await index.hexLogs(n));
    if (block === undefined) continue;
    const logs = block.logs;
    const first = out.length;
    for (let i = 0; i < logs.length; i++) if (hexLogMatches(logs[i], f)) out.push(rpcLogOf(logs[i], block));
    if (out.length > first) count(out.length - first);
  }
  return out;
}
