import type { RpcLimits } from '@ashlar/core';
import type { WebSocketOptions } from '@ashlar/transport-ws';
import type { AccessArgsContext, AccessOptionSpec } from './accessArgs.js';
import type { ServerOptions } from './server.js';

/**
 * The options that bound one request, batch or connection (issue #20, docs/access.md): who may
 * call (Host names, CORS origins), how big an answer and a batch may grow, and the WebSocket caps.
 * Kept apart from accessArgs.ts' older options so edits to the two do not collide.
 */
export const BOUND_OPTIONS: readonly AccessOptionSpec[] = [
  {
    flag: 'allowed-hosts',
    env: 'ASHLAR_ALLOWED_HOSTS',
    type: 'string',
    value: 'NAMES',
    help: 'comma-separated Host names served besides localhost and IP literals; * for any (default none)',
  },
  {
    flag: 'cors-origins',
    env: 'ASHLAR_CORS_ORIGINS',
    type: 'string',
    value: 'ORIGINS',
    help: 'comma-separated browser origins allowed by CORS; * for any, none to turn CORS off (default *)',
  },
  {
    flag: 'max-response-bytes',
    env: 'ASHLAR_MAX_RESPONSE_BYTES',
    type: 'string',
    value: 'N',
    help: "most bytes of a batch's answers and of one trace's struct logs, 0 = none (default 25000000)",
  },
  {
    flag: 'batch-cost-budget',
    env: 'ASHLAR_BATCH_COST_BUDGET',
    type: 'string',
    value: 'N',
    help: 'cost units one batch may spend (traces 100, dumps 500, eth_getLogs 10), 0 = none (default 10000)',
  },
  {
    flag: 'max-proof-keys',
    env: 'ASHLAR_MAX_PROOF_KEYS',
    type: 'string',
    value: 'N',
    help: 'most storage keys in one eth_getProof (default 1000)',
  },
  {
    flag: 'ws-max-connections',
    env: 'ASHLAR_WS_MAX_CONNECTIONS',
    type: 'string',
    value: 'N',
    help: 'most open WebSocket connections (default 10000)',
  },
  {
    flag: 'ws-max-subscriptions',
    env: 'ASHLAR_WS_MAX_SUBSCRIPTIONS',
    type: 'string',
    value: 'N',
    help: 'most subscriptions per WebSocket connection (default 1000)',
  },
  {
    flag: 'ws-max-buffered-bytes',
    env: 'ASHLAR_WS_MAX_BUFFERED_BYTES',
    type: 'string',
    value: 'N',
    help: 'unsent bytes a WebSocket client may leave before it is cut (default 16777216)',
  },
  {
    flag: 'ws-max-pings-per-second',
    env: 'ASHLAR_WS_MAX_PINGS_PER_SECOND',
    type: 'string',
    value: 'N',
    help: 'pings answered per second per WebSocket client; 10x that cuts it (default 100)',
  },
];

export interface BoundsConfig {
  server: Partial<Pick<ServerOptions, 'allowedHosts' | 'cors'>> & { ws?: WebSocketOptions };
  rpc: RpcLimits;
}

function integer(p: ReturnType<AccessArgsContext['pick']>, fail: AccessArgsContext['fail'], min: number) {
  if (!p) return undefined;
  const s = p.raw.trim();
  const n = /^\d+$/.test(s) ? Number(s) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    fail(`invalid value for ${p.source}: ${JSON.stringify(p.raw)} (expected an integer of at least ${min})`);
  }
  return n;
}

function list(p: ReturnType<AccessArgsContext['pick']>): string[] | undefined {
  if (!p) return undefined;
  return p.raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Reads BOUND_OPTIONS; what is not given stays out of the result (the libraries' defaults apply). */
export function parseBoundsArgs(ctx: AccessArgsContext): BoundsConfig {
  const { pick, fail } = ctx;
  const server: BoundsConfig['server'] = {};
  const hosts = list(pick('allowed-hosts'));
  if (hosts !== undefined) server.allowedHosts = hosts;
  const origins = list(pick('cors-origins'));
  if (origins !== undefined) {
    server.cors = origins.length === 1 && origins[0].toLowerCase() === 'none' ? false : { origin: origins };
  }
  const ws: WebSocketOptions = {};
  const wsLimits = [
    ['ws-max-connections', 'maxConnections'],
    ['ws-max-subscriptions', 'maxSubscriptionsPerConnection'],
    ['ws-max-buffered-bytes', 'maxBufferedBytes'],
    ['ws-max-pings-per-second', 'maxPingsPerSecond'],
  ] as const;
  for (const [flag, name] of wsLimits) {
    const n = integer(pick(flag), fail, 1);
    if (n !== undefined) ws[name] = n;
  }
  if (Object.keys(ws).length > 0) server.ws = ws;
  const rpc: RpcLimits = {};
  const size = integer(pick('max-response-bytes'), fail, 0);
  if (size !== undefined) rpc.maxResponseBytes = size;
  const budget = integer(pick('batch-cost-budget'), fail, 0);
  if (budget !== undefined) rpc.batchCostBudget = budget;
  const keys = integer(pick('max-proof-keys'), fail, 1);
  if (keys !== undefined) rpc.maxProofKeys = keys;
  return { server, rpc };
}
