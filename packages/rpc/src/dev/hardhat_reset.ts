import { AshlarError, ErrorCodes, type ResolvedForkOptions, defineRpcMethod, resolveForkOptions } from '@ashlar/core';
import { DecodeError, decodeObject, makeParser, optional } from '../params/index.js';
import { dev } from './services.js';

/**
 * Hardhat's and Anvil's `{ forking: { jsonRpcUrl, blockNumber, httpHeaders } }`: a fork of that
 * upstream block (default its latest); no `forking`: the node's own genesis.
 */
const resetOptions = makeParser('options', (v): { fork?: ResolvedForkOptions } => {
  const o = decodeObject(v, 'object');
  const forking = o.forking;
  if (forking === undefined || forking === null) return {};
  if (typeof forking !== 'object' || Array.isArray(forking)) throw new DecodeError('forking must be an object');
  const f = forking as Record<string, unknown>;
  if (typeof f.jsonRpcUrl !== 'string') throw new DecodeError('forking.jsonRpcUrl must be a URL string');
  const raw = f.blockNumber;
  let blockNumber: bigint | undefined;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) blockNumber = BigInt(raw);
  else if (typeof raw === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(raw)) blockNumber = BigInt(raw);
  else if (raw !== undefined && raw !== null)
    throw new DecodeError(`forking.blockNumber must be a non-negative integer, got ${JSON.stringify(raw)}`);
  const headers = f.httpHeaders ?? undefined;
  if (headers !== undefined && (typeof headers !== 'object' || headers === null || Array.isArray(headers)))
    throw new DecodeError('forking.httpHeaders must be an object of header names and values');
  try {
    // The node keeps its chain id across a reset: a re-fork does not take the upstream's.
    const fork = resolveForkOptions(
      { url: f.jsonRpcUrl, blockNumber, headers: headers as Record<string, string> | undefined },
      true,
    );
    return { fork };
  } catch (e) {
    if (e instanceof AshlarError && e.code === ErrorCodes.OPTIONS) throw new DecodeError(e.message);
    throw e;
  }
});

/**
 * Back to a fresh genesis with the node's options: blocks, receipts, lookups and indexes
 * removed, state at the genesis root, pool, snapshots, impersonations and miner settings
 * cleared. Costs O(blocks on the chain). With `forking`, the fresh chain is a fork of that
 * upstream block (docs/forking.md); without it, a forked node leaves its fork.
 */
export const hardhat_reset = defineRpcMethod({
  name: 'hardhat_reset',
  aliases: ['anvil_reset'],
  params: [optional(resetOptions)],
  handler: async (ctx, [options]) => {
    const current = ctx.services.chain.fork?.options ?? ctx.services.options.fork;
    const fork = options?.fork && {
      ...options.fork,
      // Retries, concurrency and caching stay as the node was started with.
      ...(current?.retries !== undefined ? { retries: current.retries } : {}),
      ...(current?.concurrency !== undefined ? { concurrency: current.concurrency } : {}),
      cache: current?.cache ?? options.fork.cache,
    };
    await dev(ctx.services).snapshots.reset(fork);
    return true;
  },
});
