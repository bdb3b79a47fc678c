// Issue #8's bench: what the access layer costs on the hot path. 64 concurrent keep-alive
// clients hammer `eth_blockNumber` and the explorer's `/api/v2/blocks` on `ashlar --memory`,
// without rate limits and with limits far above the load (every request still goes through the
// token bucket); the goal is ≥ 0.95 of the unlimited throughput. Runs alternate A/B/A/B so that
// drift on a shared machine falls on both. Also: the cost of the eth_call time limit on a pure
// JUMP loop in-process (the worst case for it: one JUMP every three opcodes).
//
//   node bench/src/limits.ts [--quick]   (after tsc -b; npm run bench -- --only=limits)
import { Agent, request } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccessPolicy } from '@ashlar/transport-http';
import { createNode } from 'ashlar';
import { startCli } from './cli.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLIENTS = 64;
const FAR_ABOVE = '1000000000:1000000000';

interface Target {
  path: string;
  method: 'GET' | 'POST';
  body?: string;
}

const BLOCK_NUMBER: Target = {
  path: '/',
  method: 'POST',
  body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
};
const BLOCKS_PAGE: Target = { path: '/api/v2/blocks', method: 'GET' };

/** Requests per second that CLIENTS concurrent keep-alive clients get from `url` in `seconds`. */
async function throughput(url: string, target: Target, seconds: number): Promise<number> {
  const { hostname, port } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const headers = target.body
    ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(target.body) }
    : {};
  let done = 0;
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  const one = () =>
    new Promise<void>((res) => {
      const req = request({ host: hostname, port, path: target.path, method: target.method, agent, headers }, (r) => {
        if (r.statusCode !== 200) failed++;
        r.resume();
        r.on('end', () => res());
      });
      req.on('error', () => {
        failed++;
        res();
      });
      req.end(target.body);
    });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        await one();
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  if (failed > 0) throw new Error(`${failed} requests failed: the limit was meant to be far above the load`);
  return Math.round(done / elapsed);
}

/** A node with a little chain, so the blocks page has transactions to show. */
async function node(args: string[]) {
  const cli = await startCli(ROOT, ['--memory', ...args]);
  const rpc = (method: string, params: unknown[]) =>
    fetch(cli.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
  for (let i = 0; i < 60; i++) {
    await rpc('eth_sendTransaction', [
      {
        from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        to: '0x000000000000000000000000000000000000dead',
        value: '0x1',
      },
    ]);
  }
  return cli;
}

/**
 * The limiter's own cost, free of network noise: ns per admitted JSON-RPC request (the
 * dispatcher's peek plus the charge, as the HTTP path does them) over 1,000 client addresses,
 * and the heap it leaves behind (allocation-free: nothing per request once buckets exist).
 */
function limiterCost(): Record<string, number> {
  const policy = createAccessPolicy({ rateLimit: { requestsPerSecond: 1e9, burst: 1e9 } });
  const heads = Array.from({ length: 1000 }, (_, i) => ({
    headers: {},
    socket: { remoteAddress: `10.0.${i >> 8}.${i & 255}` },
  }));
  const n = 5_000_000;
  for (let i = 0; i < 200_000; i++) policy.admitRpc(heads[i % 1000], undefined, 1);
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const head = heads[i % 1000];
    if (policy.admitRpc(head, undefined, 0) !== undefined || policy.admitRpc(head, undefined, 1) !== undefined) {
      throw new Error('refused: the limit was meant to be far above the load');
    }
  }
  const ns = ((performance.now() - t0) * 1e6) / n;
  return {
    'limiter ns per admitted request (peek + charge)': Math.round(ns),
    'heap growth over 5M admitted requests, KiB': Math.round((process.memoryUsage().heapUsed - heap0) / 1024),
  };
}

/** ms per eth_call of a JUMP loop that runs out of 2^24 gas, with the time limit off and on. */
async function deadlineCost(quick: boolean): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [label, ms] of [
    ['off', 0],
    ['on', 60_000],
  ] as const) {
    const kernel = await createNode({ chain: { hardfork: 'prague' }, rpc: { callTimeoutMs: ms } });
    const call = () =>
      kernel
        .request({ method: 'eth_call', params: [{ data: '0x5b600056', gas: '0x1000000' }, 'latest'] })
        .catch(() => undefined);
    await call();
    const n = quick ? 2 : 5;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await call();
    out[`eth_call of a 16.7M-gas JUMP loop, time limit ${label}, ms`] = Math.round((performance.now() - t0) / n);
    await kernel.close();
  }
  return out;
}

export async function limitsBench(quick: boolean): Promise<Record<string, unknown>> {
  const seconds = quick ? 2 : 5;
  const configs = {
    off: [] as string[],
    on: ['--rate-limit', FAR_ABOVE, '--explorer-rate-limit', FAR_ABOVE],
  };
  const runs: Record<'off' | 'on', { blockNumber: number[]; blocksPage: number[] }> = {
    off: { blockNumber: [], blocksPage: [] },
    on: { blockNumber: [], blocksPage: [] },
  };
  for (let round = 0; round < (quick ? 2 : 3); round++) {
    for (const which of ['off', 'on'] as const) {
      const cli = await node(configs[which]);
      try {
        // Warm-up: JIT and connection pools, not measured.
        await throughput(cli.url, BLOCK_NUMBER, 1);
        await throughput(cli.url, BLOCKS_PAGE, 1);
        runs[which].blockNumber.push(await throughput(cli.url, BLOCK_NUMBER, seconds));
        runs[which].blocksPage.push(await throughput(cli.url, BLOCKS_PAGE, seconds));
      } finally {
        await cli.stop();
      }
    }
  }
  // Medians: one run disturbed by another process on a 2-core machine should not decide.
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = (on: number[], off: number[]) => Math.round((median(on) / median(off)) * 1000) / 1000;
  return {
    clients: CLIENTS,
    'seconds per run': seconds,
    'eth_blockNumber req/s, no limiter (runs)': runs.off.blockNumber,
    'eth_blockNumber req/s, limit far above the load (runs)': runs.on.blockNumber,
    'eth_blockNumber with ÷ without limiter (medians)': ratio(runs.on.blockNumber, runs.off.blockNumber),
    '/api/v2/blocks req/s, no limiter (runs)': runs.off.blocksPage,
    '/api/v2/blocks req/s, limit far above the load (runs)': runs.on.blocksPage,
    '/api/v2/blocks with ÷ without limiter (medians)': ratio(runs.on.blocksPage, runs.off.blocksPage),
    ...limiterCost(),
    ...(await deadlineCost(quick)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await limitsBench(process.argv.includes('--quick')));
}
