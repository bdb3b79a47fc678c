import type { ForkOptions } from '@ashlar/core';
import type { AccessArgsContext, AccessOptionSpec } from './accessArgs.js';

/** The options of a fork (docs/forking.md): which chain and block, how to ask it, where to keep its answers. */
export const FORK_OPTIONS: readonly AccessOptionSpec[] = [
  {
    flag: 'fork-url',
    env: 'ASHLAR_FORK_URL',
    type: 'string',
    value: 'URL',
    help: "fork the chain at this JSON-RPC URL (http or https); the chain id becomes the upstream's unless --chain-id",
  },
  { flag: 'fork', type: 'string', value: 'URL', help: 'the same as --fork-url (Hardhat spells it so)' },
  {
    flag: 'fork-block-number',
    env: 'ASHLAR_FORK_BLOCK_NUMBER',
    type: 'string',
    value: 'N',
    help: "fork at block N (default the upstream's latest block at start)",
  },
  {
    flag: 'fork-header',
    env: 'ASHLAR_FORK_HEADERS',
    type: 'string',
    multiple: true,
    value: 'NAME:VALUE',
    help: 'HTTP header sent with every upstream request, for API keys (repeatable; the variable takes a comma-separated list)',
  },
  {
    flag: 'fork-retries',
    env: 'ASHLAR_FORK_RETRIES',
    type: 'string',
    value: 'N',
    help: 'retries of an upstream request that failed (429, 5xx, timeout, reset) before its error is answered (default 5)',
  },
  {
    flag: 'fork-concurrency',
    env: 'ASHLAR_FORK_CONCURRENCY',
    type: 'string',
    value: 'N',
    help: 'upstream HTTP requests in flight at most (default 8)',
  },
  {
    flag: 'no-fork-cache',
    env: 'ASHLAR_NO_FORK_CACHE',
    type: 'boolean',
    help: "keep the upstream's answers in memory only (default: in --db, or with --memory under $XDG_CACHE_HOME/ashlar/fork)",
  },
];

const FORK_ONLY = ['fork-block-number', 'fork-header', 'fork-retries', 'fork-concurrency'] as const;

/** The fork options from flags and variables, or undefined without --fork-url; bad values fail naming the flag. */
export function parseForkArgs(ctx: AccessArgsContext): ForkOptions | undefined {
  const both = typeof ctx.values['fork-url'] === 'string' && typeof ctx.values.fork === 'string';
  if (both) ctx.fail('--fork-url and --fork are the same option: give one');
  const urlP = ctx.pick('fork') ?? ctx.pick('fork-url');
  if (!urlP) {
    const stray =
      FORK_ONLY.find((f) => ctx.pick(f) !== undefined) ?? (ctx.flagOn('no-fork-cache') ? 'no-fork-cache' : undefined);
    if (stray) ctx.fail(`--${stray} needs --fork-url (or ASHLAR_FORK_URL)`);
    return undefined;
  }
  const url = urlP.raw.trim();
  if (!/^https?:\/\/[^\s]+$/i.test(url)) bad(ctx, urlP, 'an http:// or https:// URL');
  const fork: ForkOptions = { url };
  const blockP = ctx.pick('fork-block-number');
  if (blockP) {
    const s = blockP.raw.trim();
    if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(s)) bad(ctx, blockP, 'a block number (decimal or 0x hex)');
    fork.blockNumber = BigInt(s);
  }
  const retriesP = ctx.pick('fork-retries');
  if (retriesP) fork.retries = integer(ctx, retriesP, 0, 100, 'an integer from 0 to 100');
  const concurrencyP = ctx.pick('fork-concurrency');
  if (concurrencyP) fork.concurrency = integer(ctx, concurrencyP, 1, 1000, 'an integer from 1 to 1000');
  const headers = headerArgs(ctx);
  if (headers) fork.headers = headers;
  if (ctx.flagOn('no-fork-cache')) fork.cache = false;
  return fork;
}

/** `--fork-header NAME:VALUE` (repeatable), else ASHLAR_FORK_HEADERS (comma-separated). */
function headerArgs(ctx: AccessArgsContext): Record<string, string> | undefined {
  const flags = ctx.values['fork-header'];
  const fromEnv = ctx.env.ASHLAR_FORK_HEADERS;
  const list: { raw: string; source: string }[] = Array.isArray(flags)
    ? flags.map((raw) => ({ raw: String(raw), source: '--fork-header' }))
    : fromEnv
      ? fromEnv.split(',').map((raw) => ({ raw, source: 'ASHLAR_FORK_HEADERS (--fork-header)' }))
      : [];
  if (list.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const p of list) {
    const at = p.raw.indexOf(':');
    const name = at > 0 ? p.raw.slice(0, at).trim() : '';
    const value = at > 0 ? p.raw.slice(at + 1).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n]/.test(value))
      bad(ctx, p, 'NAME:VALUE, a header name, a colon and its value');
    headers[name] = value;
  }
  return headers;
}

function integer(
  ctx: AccessArgsContext,
  p: { raw: string; source: string },
  min: number,
  max: number,
  expected: string,
): number {
  const s = p.raw.trim();
  const n = /^\d+$/.test(s) ? Number(s) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) bad(ctx, p, expected);
  return n;
}

function bad(ctx: AccessArgsContext, p: { raw: string; source: string }, expected: string): never {
  ctx.fail(`invalid value for ${p.source}: ${JSON.stringify(p.raw)} (expected ${expected})`);
}
