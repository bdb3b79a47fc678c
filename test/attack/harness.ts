/**
 * The attack suite's shared parts: a real node on a loopback port (in this process, so the
 * event-loop delay and RSS measured here are the node's), a probe client that keeps asking
 * `eth_blockNumber` while an attack runs, and the open-socket count the node's fds follow.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createNode, type NodeOptions, type RunningServer, type ServerOptions, startServer } from 'ashlar';

export interface AttackNode {
  url: string;
  wsUrl: string;
  port: number;
  kernel: Awaited<ReturnType<typeof createNode>>;
  running: RunningServer;
  /** Sockets the HTTP server holds open (each is an fd). */
  connections(): Promise<number>;
  close(): Promise<void>;
}

export async function startAttackNode(
  node: NodeOptions & { automine?: boolean } = {},
  server: ServerOptions = {},
): Promise<AttackNode> {
  const { automine, ...rest } = node;
  const kernel = await createNode({
    ...rest,
    mining: { automine: automine ?? true, blockTime: 0, ...rest.mining },
  });
  const running = await startServer(kernel, { port: 0, ...server });
  const port = (running.server.address() as AddressInfo).port;
  return {
    url: running.url,
    wsUrl: running.wsUrl,
    port,
    kernel,
    running,
    connections: () =>
      new Promise((resolve, reject) => running.server.getConnections((e, n) => (e ? reject(e) : resolve(n)))),
    async close() {
      await running.close();
      await kernel.close();
    },
  };
}

/** One JSON-RPC call over a fresh HTTP connection (agent off: nothing stays open after it). */
export function rpc(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; json: () => unknown }> {
  const data = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** A GET over a fresh connection (agent off: nothing stays open after it, unlike fetch's pool). */
export function httpGet(url: string): Promise<{ status: number; text: string; json: () => unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export interface Measurement {
  /** Slowest probe answer, ms (a probe still waiting at the end counts until then). */
  worstProbeMs: number;
  probes: number;
  failedProbes: number;
  /** Worst event-loop delay seen, ms. */
  worstLoopDelayMs: number;
  /** Highest RSS sampled, MiB. */
  peakRssMiB: number;
}

/**
 * Probes the node every `everyMs` while `attack` runs, one probe in flight at a time, and
 * measures the event loop and RSS meanwhile.
 */
export async function underProbe<T>(
  url: string,
  attack: () => Promise<T>,
  everyMs = 25,
): Promise<{ result: T; m: Measurement }> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let peakRss = process.memoryUsage().rss;
  const rssTimer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  let stop = false;
  let worst = 0;
  let probes = 0;
  let failed = 0;
  let inFlightSince: number | undefined;
  // Latency counts from when a probe was due, not when it went out: a loop held while the
  // prober sleeps delays the send, and that wait is what a client would see.
  let due = performance.now();
  const prober = (async () => {
    while (!stop) {
      inFlightSince = due;
      try {
        const r = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
        if (r.status !== 200 || !String(r.text).includes('"result"')) failed++;
      } catch {
        failed++;
      }
      worst = Math.max(worst, performance.now() - inFlightSince);
      inFlightSince = undefined;
      probes++;
      due = performance.now() + everyMs;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  let result: T;
  try {
    result = await attack();
  } finally {
    stop = true;
    if (inFlightSince !== undefined) worst = Math.max(worst, performance.now() - inFlightSince);
    await prober;
    clearInterval(rssTimer);
    loop.disable();
  }
  const m: Measurement = {
    worstProbeMs: Math.round(worst),
    probes,
    failedProbes: failed,
    worstLoopDelayMs: Math.round(loop.max / 1e6),
    peakRssMiB: Math.round(peakRss / 2 ** 20),
  };
  return { result, m };
}

/** One line per case, for the report (vitest prints it with the test's output). */
export function report(name: string, m: Measurement, answer: string): void {
  console.log(
    `[attack] ${name}: worst loop delay ${m.worstLoopDelayMs} ms, worst probe ${m.worstProbeMs} ms over ${m.probes} probes, peak RSS ${m.peakRssMiB} MiB; answer: ${answer}`,
  );
}

/** Waits until `check` holds (polling), or fails with `what` after `ms`. */
export async function eventually(check: () => Promise<boolean> | boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// A full collection on demand, so "memory came back" measures what is still referenced.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** RSS in MiB after a full collection. */
export function rssMiB(): number {
  collect();
  return Math.round(process.memoryUsage().rss / 2 ** 20);
}

export interface Baseline {
  connections: number;
  heapMiB: number;
}

/** Open sockets and live heap (after a full collection) before an attack. */
export async function baseline(node: AttackNode): Promise<Baseline> {
  collect();
  return { connections: await node.connections(), heapMiB: process.memoryUsage().heapUsed / 2 ** 20 };
}

/**
 * After an attack: the node's sockets are back to the baseline and its live heap is within
 * `slackMiB` of it (the attack's objects were freed, not kept by the node).
 */
export async function expectBack(node: AttackNode, base: Baseline, slackMiB = 64): Promise<void> {
  await eventually(async () => (await node.connections()) <= base.connections, 'the sockets to close');
  let heap = Number.POSITIVE_INFINITY;
  await eventually(
    () => {
      collect();
      heap = process.memoryUsage().heapUsed / 2 ** 20;
      return heap - base.heapMiB < slackMiB;
    },
    `the heap to come back within ${slackMiB} MiB of ${Math.round(base.heapMiB)} MiB (now ${Math.round(heap)} MiB)`,
    10_000,
  );
}

/**
 * After a burst of blocks the node does one-off catch-up work on the next request (about 2 s
 * for 100 blocks, measured here: the explorer index); wait for it so a case measures its attack.
 */
export async function settle(node: AttackNode): Promise<void> {
  await rpc(node.url, { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: 'latest' }] });
  await new Promise((r) => setTimeout(r, 100));
}
