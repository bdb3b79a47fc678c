import { readFileSync } from 'node:fs';
import type { RpcLimits } from '@ashlar/core';
import { type AccessOptions, apiKeyProblem, type RateLimit } from '@ashlar/transport-http';
import { BOUND_OPTIONS, parseBoundsArgs } from './boundsArgs.js';
import type { ServerOptions } from './server.js';

/** The shape of an entry of args.ts' OPTIONS (kept structural so the two files do not import each other). */
export interface AccessOptionSpec {
  flag: string;
  env?: string;
  type: 'string' | 'boolean';
  multiple?: boolean;
  value?: string;
  help: string;
}

/** The options of shared deployments (docs/access.md): keys, rate limits, request limits, TLS. */
export const ACCESS_OPTIONS: readonly AccessOptionSpec[] = [
  {
    flag: 'api-key',
    env: 'ASHLAR_API_KEYS',
    type: 'string',
    multiple: true,
    value: 'KEY',
    help: 'also serve JSON-RPC at /api/v1/KEY (repeatable; the variable takes a comma-separated list)',
  },
  {
    flag: 'api-keys-file',
    env: 'ASHLAR_API_KEYS_FILE',
    type: 'string',
    value: 'FILE',
    help: 'API keys, one a line (# comments); keeps keys out of the process list',
  },
  {
    flag: 'require-api-key',
    env: 'ASHLAR_REQUIRE_API_KEY',
    type: 'boolean',
    help: 'serve JSON-RPC only at /api/v1/KEY: the open endpoints answer 401',
  },
  {
    flag: 'rate-limit',
    env: 'ASHLAR_RATE_LIMIT',
    type: 'string',
    value: 'RPS[:BURST]',
    help: 'requests per second (and burst) per client IP on the open JSON-RPC endpoints (default off)',
  },
  {
    flag: 'key-rate-limit',
    env: 'ASHLAR_KEY_RATE_LIMIT',
    type: 'string',
    value: 'RPS[:BURST]',
    help: 'requests per second (and burst) per API key (default off)',
  },
  {
    flag: 'explorer-rate-limit',
    env: 'ASHLAR_EXPLORER_RATE_LIMIT',
    type: 'string',
    value: 'RPS[:BURST]',
    help: 'requests per second (and burst) per client IP on /api/v2 (default off)',
  },
  {
    flag: 'trust-proxy',
    env: 'ASHLAR_TRUST_PROXY',
    type: 'boolean',
    help: 'take the client IP from X-Forwarded-For (only behind your own reverse proxy)',
  },
  {
    flag: 'tls-cert',
    env: 'ASHLAR_TLS_CERT',
    type: 'string',
    value: 'FILE',
    help: 'PEM certificate (chain): serve HTTPS and WSS (with --tls-key)',
  },
  { flag: 'tls-key', env: 'ASHLAR_TLS_KEY', type: 'string', value: 'FILE', help: 'PEM private key of --tls-cert' },
  {
    flag: 'max-body-bytes',
    env: 'ASHLAR_MAX_BODY_BYTES',
    type: 'string',
    value: 'N',
    help: 'largest HTTP request body (default 5242880)',
  },
  {
    flag: 'poll-after-reply-us',
    env: 'ASHLAR_POLL_AFTER_REPLY_US',
    type: 'string',
    value: 'N',
    help: 'keep polling for the next request N µs after each HTTP answer instead of sleeping (default 100, 0: off)',
  },
  {
    flag: 'max-batch-size',
    env: 'ASHLAR_MAX_BATCH_SIZE',
    type: 'string',
    value: 'N',
    help: 'most requests in one JSON-RPC batch (default 1000)',
  },
  {
    flag: 'ws-max-frame-bytes',
    env: 'ASHLAR_WS_MAX_FRAME_BYTES',
    type: 'string',
    value: 'N',
    help: 'largest WebSocket message a client may send (default 33554432)',
  },
  {
    flag: 'logs-max-block-range',
    env: 'ASHLAR_LOGS_MAX_BLOCK_RANGE',
    type: 'string',
    value: 'N',
    help: 'widest eth_getLogs block range (default 10000)',
  },
  {
    flag: 'logs-max-results',
    env: 'ASHLAR_LOGS_MAX_RESULTS',
    type: 'string',
    value: 'N',
    help: 'most logs one eth_getLogs returns (default 10000)',
  },
  {
    flag: 'call-gas-cap',
    env: 'ASHLAR_CALL_GAS_CAP',
    type: 'string',
    value: 'GAS',
    help: 'gas cap of eth_call / eth_estimateGas (default 50000000)',
  },
  {
    flag: 'call-timeout',
    env: 'ASHLAR_CALL_TIMEOUT',
    type: 'string',
    value: 'SECONDS',
    help: 'time limit of one eth_call / eth_estimateGas, 0 = none (default 5)',
  },
  // Per-request, per-batch and per-connection bounds (issue #20): boundsArgs.ts.
  ...BOUND_OPTIONS,
];

type Picked = { raw: string; source: string } | undefined;

/** What args.ts hands over: its flag-or-variable lookups and the error it throws. */
export interface AccessArgsContext {
  values: Readonly<Record<string, unknown>>;
  env: Readonly<Record<string, string | undefined>>;
  pick(flag: string): Picked;
  flagOn(flag: string): boolean;
  fail(message: string): never;
}

export interface AccessConfig {
  /** Added to `ServerOptions`; empty when no option is given. */
  server: Partial<
    Pick<ServerOptions, 'access' | 'tls' | 'maxBodyBytes' | 'ws' | 'allowedHosts' | 'cors' | 'pollAfterReplyUs'>
  >;
  /** Added to the node's `rpc` limits; undefined when none is given. */
  rpc: RpcLimits | undefined;
}

function readText(file: string, source: string, fail: AccessArgsContext['fail']): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    fail(`cannot read ${source} ${JSON.stringify(file)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

/** Keys from the flags, the variable and the file; their values are never quoted in errors. */
function apiKeys(ctx: AccessArgsContext): string[] {
  const flags = ctx.values['api-key'];
  const keys: string[] = Array.isArray(flags) ? flags.map((k) => String(k).trim()) : [];
  const fromEnv = ctx.env.ASHLAR_API_KEYS;
  if (keys.length === 0 && fromEnv !== undefined && fromEnv.trim() !== '') {
    keys.push(...fromEnv.split(/[\s,]+/).filter((k) => k !== ''));
  }
  const file = ctx.pick('api-keys-file');
  if (file) {
    for (const line of readText(file.raw.trim(), file.source, ctx.fail).split(/\r?\n/)) {
      const key = line.replace(/#.*/, '').trim();
      if (key !== '') keys.push(key);
    }
  }
  return keys;
}

/** `RPS` or `RPS:BURST`: a positive number of requests per second, a positive integer burst. */
function rateLimit(p: Picked, fail: AccessArgsContext['fail']): RateLimit | undefined {
  if (!p) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?::\s*(\d+)\s*)?$/.exec(p.raw);
  const rps = m ? Number(m[1]) : Number.NaN;
  const burst = m?.[2] !== undefined ? Number(m[2]) : undefined;
  if (!(rps > 0) || (burst !== undefined && !(burst >= 1))) {
    fail(
      `invalid value for ${p.source}: ${JSON.stringify(p.raw)} (expected RPS or RPS:BURST, e.g. 20 or 20:40, both positive)`,
    );
  }
  return burst === undefined ? { requestsPerSecond: rps } : { requestsPerSecond: rps, burst };
}

function positive(
  p: Picked,
  fail: AccessArgsContext['fail'],
  min = 1,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (!p) return undefined;
  const s = p.raw.trim();
  const n = /^\d+$/.test(s) ? Number(s) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    fail(`invalid value for ${p.source}: ${JSON.stringify(p.raw)} (expected an integer from ${min} to ${max})`);
  }
  return n;
}

/** Reads the options of ACCESS_OPTIONS; what is not given stays out of the result. */
export function parseAccessArgs(ctx: AccessArgsContext): AccessConfig {
  const { pick, fail } = ctx;
  const keys = apiKeys(ctx);
  for (const key of keys) {
    const problem = apiKeyProblem(key);
    if (problem !== undefined) fail(`bad API key (--api-key, --api-keys-file or ASHLAR_API_KEYS): ${problem}`);
  }
  const requireApiKey = ctx.flagOn('require-api-key');
  if (requireApiKey && keys.length === 0) fail('--require-api-key needs keys (--api-key or --api-keys-file)');
  const access: AccessOptions = {
    ...(keys.length > 0 ? { apiKeys: keys } : {}),
    ...(requireApiKey ? { requireApiKey } : {}),
  };
  const limits = {
    rateLimit: rateLimit(pick('rate-limit'), fail),
    keyRateLimit: rateLimit(pick('key-rate-limit'), fail),
    explorerRateLimit: rateLimit(pick('explorer-rate-limit'), fail),
  };
  for (const [name, limit] of Object.entries(limits)) if (limit) Object.assign(access, { [name]: limit });
  if (ctx.flagOn('trust-proxy')) access.trustProxy = true;

  const certP = pick('tls-cert');
  const keyP = pick('tls-key');
  if (!certP !== !keyP) fail('--tls-cert and --tls-key go together: give both or neither');
  const tls =
    certP && keyP
      ? {
          cert: readText(certP.raw.trim(), certP.source, fail),
          key: readText(keyP.raw.trim(), keyP.source, fail),
        }
      : undefined;

  const maxBodyBytes = positive(pick('max-body-bytes'), fail);
  const pollAfterReplyUs = positive(pick('poll-after-reply-us'), fail, 0, 100_000);
  const maxFrameBytes = positive(pick('ws-max-frame-bytes'), fail);
  const bounds = parseBoundsArgs(ctx);
  const ws = { ...(maxFrameBytes !== undefined ? { maxFrameBytes } : {}), ...bounds.server.ws };
  const server: AccessConfig['server'] = {
    ...(Object.keys(access).length > 0 ? { access } : {}),
    ...(tls ? { tls } : {}),
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
    ...(pollAfterReplyUs !== undefined ? { pollAfterReplyUs } : {}),
    ...(Object.keys(ws).length > 0 ? { ws } : {}),
    ...(bounds.server.allowedHosts !== undefined ? { allowedHosts: bounds.server.allowedHosts } : {}),
    ...(bounds.server.cors !== undefined ? { cors: bounds.server.cors } : {}),
  };

  const rpc: RpcLimits = { ...bounds.rpc };
  const batch = positive(pick('max-batch-size'), fail);
  if (batch !== undefined) rpc.maxBatchSize = batch;
  const range = positive(pick('logs-max-block-range'), fail);
  if (range !== undefined) rpc.logsMaxBlockRange = range;
  const results = positive(pick('logs-max-results'), fail);
  if (results !== undefined) rpc.logsMaxResults = results;
  const capP = pick('call-gas-cap');
  if (capP) {
    const s = capP.raw.trim();
    if (!/^[1-9][0-9]*$/.test(s))
      fail(`invalid value for ${capP.source}: ${JSON.stringify(capP.raw)} (expected a positive integer)`);
    rpc.callGasCap = BigInt(s);
  }
  const timeoutP = pick('call-timeout');
  if (timeoutP) {
    const s = timeoutP.raw.trim();
    const seconds = /^\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN;
    if (!Number.isFinite(seconds) || seconds > 86_400) {
      fail(`invalid value for ${timeoutP.source}: ${JSON.stringify(timeoutP.raw)} (expected seconds from 0 to 86400)`);
    }
    rpc.callTimeoutMs = Math.round(seconds * 1000);
  }
  return { server, rpc: Object.keys(rpc).length > 0 ? rpc : undefined };
}
