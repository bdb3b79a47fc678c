import { AshlarError, ErrorCodes, type ResolvedForkOptions, defineRpcMethod, resolveForkOptions } from '@ashlar/core';
import { DecodeError, decodeObject, makeParser, optional } from '../params/index.js';
import { dev } from './services.js';

/** What `{ forking: { jsonRpcUrl, blockNumber, httpHeaders } }` asks for (any part may be absent). */
interface ForkingParam {
  url?: string;
  blockNumber?: bigint;
  headers?: Record<string, string>;
}

/** Hardhat's and Anvil's reset options; `forking` is undefined when absent or null. */
const resetOptions = makeParser('options', (v): { forking?: ForkingParam } => {
  const o = decodeObject(v, 'object');
  const forking = o.forking;
  if (forking === undefined || forking === null) return {};
  if (typeof forking !== 'object' || Array.isArray(forking)) throw new DecodeError('forking must be an object');
  const f = forking as Record<string, unknown>;
  const out: ForkingParam = {};
  if (f.jsonRpcUrl !== undefined && f.jsonRpcUrl !== null) {
    if (typeof f.jsonRpcUrl !== 'string') throw new DecodeError('forking.jsonRpcUrl must be a URL string');
    out.url = f.jsonRpcUrl;
  }
  const raw = f.blockNumber;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) out.blockNumber = BigInt(raw);
  else if (typeof raw === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(raw)) out.blockNumber = BigInt(raw);
  else if (raw !== undefined && raw !== null)
    throw new DecodeError(`forking.blockNumber must be a non-negative integer, got ${JSON.stringify(raw)}`);
  const headers = f.httpHeaders;
  if (headers !== undefined && headers !== null) {
    if (typeof headers !== 'object' || Array.isArray(headers))
      throw new DecodeError('forking.httpHeaders must be an object of header names and values');
    out.headers = headers as Record<string, string>;
  }
  return { forking: out };
});

/**
 * Back to a fresh genesis with the node's options: blocks, receipts, lookups and indexes
 * removed, state at the genesis root, pool, snapshots, impersonations and miner settings
 * cleared. Costs O(blocks on the chain). With `forking`, the fresh chain is a fork of that
 * upstream block (docs/forking.md): `jsonRpcUrl` defaults to the current fork's (as Hardhat's
 * reset uses its configured fork), and without any URL the node resets to its own genesis (viem's
 * reset() on a chain without a fork sends `{ forking: { blockNumber: null } }`). With no params, a
 * forked node leaves its fork, as Anvil 1.7's anvil_reset does.
 */
export const hardhat_reset = defineRpcMethod({
  name: 'hardhat_reset',
  aliases: ['anvil_reset'],
  params: [optional(resetOptions)],
  handler: async (ctx, [options]) => {
    const svc = ctx.services;
    const current = svc.chain.fork?.options ?? svc.options.fork;
    const forking = options?.forking;
    const url = forking?.url ?? (forking ? svc.chain.fork?.options.url : undefined);
    let fork: ResolvedForkOptions | undefined;
    if (forking && url !== undefined) {
      try {
        // The node keeps its chain id across a reset: a re-fork does not take the upstream's.
        fork = resolveForkOptions(
          {
            url,
            ...(forking.blockNumber !== undefined ? { blockNumber: forking.blockNumber } : {}),
            ...((forking.headers ?? (forking.url ? undefined : current?.headers))
              ? { headers: forking.headers ?? current?.headers }
              : {}),
            // Retries, concurrency and caching stay as the node was started with.
            ...(current?.retries !== undefined ? { retries: current.retries } : {}),
            ...(current?.concurrency !== undefined ? { concurrency: current.concurrency } : {}),
            ...(current ? { cache: current.cache } : {}),
          },
          true,
        );
      } catch (e) {
        if (e instanceof AshlarError && e.code === ErrorCodes.OPTIONS)
          throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid argument 0 (options): ${e.message}`);
        throw e;
      }
    }
    await dev(svc).snapshots.reset(fork);
    return true;
  },
});
