import { AshlarError, ErrorCodes, type KernelServices, toQuantity } from '@ashlar/core';
import type { BlockTagOrHashParam, LogFilter } from '../params/index.js';

/**
 * On a forked chain, the number of the upstream block a block parameter names when that block is
 * the upstream's: at or below the fork block N (`earliest` is the upstream's genesis). Undefined
 * otherwise (a chain of its own, a hash, a block after N, `pending`): the local chain answers.
 * Block N itself is the upstream's too: the local chain holds only its header.
 */
export function upstreamBlockNumber(services: KernelServices, p: BlockTagOrHashParam): bigint | undefined {
  const fork = services.chain.fork;
  if (!fork) return undefined;
  if (p.kind === 'tag') {
    if (p.tag === 'earliest') return 0n;
    // `latest` while nothing was mined since the fork is block N itself.
    const head = services.chain.head.number;
    return p.tag !== 'pending' && head <= fork.number ? head : undefined;
  }
  if (p.kind === 'number') return p.number <= fork.number ? p.number : undefined;
  return undefined;
}

/**
 * A call about a block at or below N forwarded to the upstream, or undefined when the local chain
 * answers it. `params` gets the block as a QUANTITY where `at` says (its index in the params).
 */
export function forwardToUpstream(
  services: KernelServices,
  p: BlockTagOrHashParam,
  method: string,
  params: unknown[],
  at: number,
): Promise<unknown> | undefined {
  const n = upstreamBlockNumber(services, p);
  const history = services.chain.fork?.history;
  if (n === undefined || !history) return undefined;
  const args = [...params];
  args.splice(at, 0, toQuantity(n));
  return history.forward(method, args);
}

/**
 * State at a block before N (eth_getBalance and friends at N-1): the upstream's, forwarded. State
 * at N and after is the local chain's (the fork layer reads N's from the upstream as needed).
 */
export function forwardStateBelowFork(
  services: KernelServices,
  p: BlockTagOrHashParam,
  method: string,
  params: unknown[],
): Promise<unknown> | undefined {
  const fork = services.chain.fork;
  const n = upstreamBlockNumber(services, p);
  if (!fork || n === undefined || n >= fork.number) return undefined;
  return fork.history.forward(method, [...params, toQuantity(n)]);
}

/**
 * On a fork, a block named by hash that the local chain does not hold after N (a miss, or block N,
 * whose body only the upstream has): the upstream's answer to `method` for it, or null when the
 * upstream's block lies after N (not this chain's). Undefined when the local chain answers.
 * `method` is eth_getBlockByHash itself or a call that takes the hash first.
 */
export function forwardByBlockHash(
  services: KernelServices,
  local: { number: bigint } | undefined,
  hash: Uint8Array,
  method: string,
  params: unknown[],
): Promise<unknown> | undefined {
  const fork = services.chain.fork;
  if (!fork || (local && local.number > fork.number)) return undefined;
  const history = fork.history;
  return (async () => {
    const block = await history.blockByHash(hash, method === 'eth_getBlockByHash' && params[0] === true);
    if (!block) return null;
    return method === 'eth_getBlockByHash' ? block : history.forward(method, [block.hash, ...params]);
  })();
}

/** A transaction (or its receipt) the local chain does not know: the upstream's when mined at or below N. */
export function upstreamTransaction(
  services: KernelServices,
  method: string,
  hash: Uint8Array,
): Promise<unknown> | null {
  const fork = services.chain.fork;
  return fork ? fork.history.byHash(method, hash) : null;
}

/**
 * eth_getLogs over from..to on a fork: the part at or below N comes from the upstream (one
 * eth_getLogs there), the part after N from the local chain, in block order. Without a fork, or
 * for a range after N, the local query alone.
 */
export async function logsAcrossFork<T>(
  services: KernelServices,
  filter: LogFilter,
  from: bigint,
  to: bigint,
  maxResults: number,
  local: (from: bigint, to: bigint, maxResults: number) => Promise<T[]>,
): Promise<unknown[]> {
  const fork = services.chain.fork;
  if (!fork || from > fork.number) return local(from, to, maxResults);
  const upstream = await fork.history.logs(filter, from, to < fork.number ? to : fork.number);
  if (upstream.length > maxResults)
    throw new AshlarError(
      ErrorCodes.LIMIT_EXCEEDED,
      `query returned more than ${maxResults} results (the upstream's blocks ${from}..${fork.number} alone hold ${upstream.length})`,
    );
  if (to <= fork.number) return upstream;
  return [...upstream, ...(await local(fork.number + 1n, to, maxResults - upstream.length))];
}

/** eth_getLogs by block hash on a fork, for a block the local chain does not hold after N; undefined otherwise. */
export async function upstreamLogsByHash(
  services: KernelServices,
  local: { number: bigint } | undefined,
  filter: LogFilter,
  hash: Uint8Array,
): Promise<unknown[] | undefined> {
  const fork = services.chain.fork;
  if (!fork || (local && local.number > fork.number)) return undefined;
  const block = await fork.history.blockByHash(hash, false);
  if (!block) throw new AshlarError(ErrorCodes.INVALID_PARAMS, 'unknown block');
  const n = BigInt(block.number);
  return fork.history.logs(filter, n, n);
}

/**
 * On a fork, asks the upstream for an account before the read waits for the chain lock, then
 * runs the read: reads at the head run one at a time, so without this, concurrent first touches
 * of N accounts would be N upstream requests, one after the other; fetched first, they leave
 * together in one batch. The answer is remembered, so the read itself finds it. A failure is left
 * to the read, which reports it. Accounts only: a slot of a contract created on the fork would be
 * asked for needlessly.
 */
export async function withUpstreamAccount<T>(
  services: KernelServices,
  address: { bytes: Uint8Array },
  read: () => Promise<T>,
): Promise<T> {
  const state = services.chain.fork?.state;
  if (state) await state.account(address.bytes).catch(() => undefined);
  return read();
}
