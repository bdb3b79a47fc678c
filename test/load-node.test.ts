// Issue #8, load and faults (loopback only, bounded): 64 concurrent clients mix reads, sends and
// explorer pages against the `ashlar` command while misbehaving clients disconnect mid-request,
// send half a body, or open a WebSocket and never read. Nothing but rate limiting may fail, and
// every accepted transaction is mined and queryable. Then the process is killed under load and
// restarts on a consistent chain. ASHLAR_LOAD_SECONDS sets the load phase (default 8 s).
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runningClis, startCli } from './helpers/cli.js';

const SECONDS = Number(process.env.ASHLAR_LOAD_SECONDS ?? 8);
const CLIENTS = 64;
const SENDERS = 16;
const EXPLORERS = 16;
const DEV = [
  '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  '0x90f79bf6eb2c4f870365e785982e1f101e93b906',
  '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65',
  '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc',
  '0x976ea74026e726554db657fa54763abd0c3a0aa9',
  '0x14dc79964da2c08b23698b3d3cc7ca32193d9955',
  '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f',
  '0xa0ee7a142d267c1f36714e4a8f75612f20a79720',
  '0xbcd4042de499d14e55001ccbb24a551f3b954096',
  '0x71be63f3384f5fb98995898a86b02fb2426c5788',
  '0xfabb0ac9d68b0b445fb7357272ff202c5651694a',
  '0x1cbd3b2770909d4e10f157cabc84c7264073c9ec',
  '0xdf3e18d64bc6a983f673ab319ccae4f1a57c7097',
  '0xcd3b766ccdd6ae721141f452c550ca635964ce71',
];
const SINK = '0x000000000000000000000000000000000000dead';

const tmp = mkdtempSync(join(tmpdir(), 'ashlar-load-'));
afterAll(() => {
  for (const p of runningClis) p.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

interface Tally {
  ok: number;
  rateLimited: number;
  errors: string[];
  accepted: string[];
}

let rpcId = 0;
async function rpc<T>(
  url: string,
  method: string,
  params: unknown[],
  headers: Record<string, string> = {},
): Promise<{ status: number; result?: T; error?: { code: number; message: string } }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
  return { status: res.status, ...body };
}

/** Runs the mixed workload until `stop()` says so; the kill phase stops it by killing the node. */
function workload(url: string, stop: () => boolean, tally: Tally, nonces: number[]): Promise<void>[] {
  const record = (status: number, error: { code: number; message: string } | undefined, what: string) => {
    if (status === 429 || error?.code === -32005) tally.rateLimited++;
    else if (status !== 200 || error) tally.errors.push(`${what}: ${status} ${error?.message ?? ''}`);
    else tally.ok++;
  };
  const guarded = (what: string, fn: () => Promise<void>) => async () => {
    while (!stop()) {
      try {
        await fn();
      } catch (e) {
        if (!stop()) tally.errors.push(`${what}: ${String(e)}`);
      }
    }
  };
  const clients: Promise<void>[] = [];
  // Every client comes from an address of its own (the node trusts X-Forwarded-For here).
  const from = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i}` });
  for (let i = 0; i < SENDERS; i++) {
    clients.push(
      guarded('send', async () => {
        const nonce = nonces[i];
        const r = await rpc<string>(
          url,
          'eth_sendTransaction',
          [{ from: DEV[i], to: SINK, value: '0x1', nonce: `0x${nonce.toString(16)}` }],
          from(i),
        );
        record(r.status, r.error, 'eth_sendTransaction');
        if (r.result) {
          nonces[i] = nonce + 1;
          tally.accepted.push(r.result);
        }
      })(),
    );
  }
  const reads: [string, unknown[]][] = [
    ['eth_blockNumber', []],
    ['eth_getBalance', [SINK, 'latest']],
    ['eth_getBlockByNumber', ['latest', true]],
    ['eth_call', [{ to: SINK, data: '0x' }, 'latest']],
    ['eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]],
    ['eth_gasPrice', []],
  ];
  for (let i = SENDERS; i < CLIENTS - EXPLORERS; i++) {
    let n = i;
    clients.push(
      guarded('read', async () => {
        const [method, params] = reads[n++ % reads.length];
        const r = await rpc(url, method, params, from(i));
        record(r.status, r.error, method);
      })(),
    );
  }
  const pages = [
    '/api/v2/blocks',
    '/api/v2/transactions',
    `/api/v2/addresses/${SINK}/transactions`,
    '/api/v2/stats',
    '/api/v2/main-page/blocks',
  ];
  for (let i = CLIENTS - EXPLORERS; i < CLIENTS; i++) {
    let n = i;
    clients.push(
      guarded('explorer', async () => {
        const page = pages[n++ % pages.length];
        // The explorer clients share one address and its limit: some are rate limited.
        const res = await fetch(`${url}${page}`, { headers: from(250) });
        await res.arrayBuffer();
        record(res.status, undefined, page);
      })(),
    );
  }
  return clients;
}

/** The misbehaving clients: each returns a function that cleans up what it left open. */
function faults(url: string): () => void {
  const { hostname, port } = new URL(url);
  const sockets: Socket[] = [];
  const raw = (text: string, destroy: boolean) => {
    const s = connect(Number(port), hostname, () => {
      s.write(text);
      if (destroy) s.destroy();
    });
    s.on('error', () => {});
    sockets.push(s);
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
  const head = (len: number) =>
    `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${len}\r\n\r\n`;
  const timer = setInterval(() => {
    // Disconnects mid-request: a full request, then gone before the answer.
    raw(head(body.length) + body, true);
    // Half a body, then silence (kept open until cleanup), and half a body then gone.
    raw(head(body.length) + body.slice(0, 20), false);
    raw(head(body.length) + body.slice(0, 20), true);
    // Half the headers.
    raw('POST / HTTP/1.1\r\nHost: x\r\nContent-Le', false);
  }, 200);
  // A WebSocket client that subscribes, asks, and never reads.
  const deaf: WebSocket[] = [];
  for (let i = 0; i < 4; i++) {
    const ws = new WebSocket(url.replace('http', 'ws'));
    ws.on('error', () => {});
    ws.once('open', () => {
      (ws as unknown as { _socket: Socket })._socket.pause();
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
      for (let j = 0; j < 200; j++)
        ws.send(
          JSON.stringify({ jsonrpc: '2.0', id: j + 2, method: 'eth_getBlockByNumber', params: ['latest', true] }),
        );
    });
    deaf.push(ws);
  }
  return () => {
    clearInterval(timer);
    for (const s of sockets) s.destroy();
    for (const ws of deaf) ws.terminate();
  };
}

/**
 * The checks' own JSON-RPC batches, 200 calls each: every batch comes from an address of its own
 * (the node trusts X-Forwarded-For here), so the load's buckets never refuse them.
 */
let checker = 0;
async function checkBatch<T>(url: string, calls: { method: string; params: unknown[] }[]): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < calls.length; i += 200) {
    const chunk = calls.slice(i, i + 200);
    checker++;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${checker % 250}` },
      body: JSON.stringify(chunk.map((c, j) => ({ jsonrpc: '2.0', id: j, ...c }))),
    });
    const answers = (await res.json()) as { id: number; result: T }[];
    expect(Array.isArray(answers), `batch answered ${res.status} ${JSON.stringify(answers)}`).toBe(true);
    for (const a of answers.sort((x, y) => x.id - y.id)) out.push(a.result);
  }
  return out;
}

const FLAGS = ['--port', '0', '--trust-proxy', '--rate-limit', '400:800', '--explorer-rate-limit', '30:30'];

it(`serves 64 clients for ${SECONDS} s beside misbehaving ones, loses nothing, and survives SIGKILL`, {
  timeout: 60_000 + SECONDS * 2_000,
}, async () => {
  const db = join(tmp, 'chain');
  const node = startCli(['--db', db, ...FLAGS]);
  const url = await node.url;

  const tally: Tally = { ok: 0, rateLimited: 0, errors: [], accepted: [] };
  const nonces = new Array<number>(SENDERS).fill(0);
  let stopped = false;
  const cleanup = faults(url);
  const clients = workload(url, () => stopped, tally, nonces);
  await new Promise((r) => setTimeout(r, SECONDS * 1_000));
  stopped = true;
  await Promise.all(clients);
  cleanup();

  expect(tally.errors.slice(0, 10)).toEqual([]);
  expect(tally.accepted.length).toBeGreaterThan(SENDERS);
  // Every accepted hash is mined (automine) and queryable, by JSON-RPC and by the explorer.
  const receipts = await checkBatch<{ status: string; transactionHash: string } | null>(
    url,
    tally.accepted.map((h) => ({ method: 'eth_getTransactionReceipt', params: [h] })),
  );
  for (const [i, r] of receipts.entries())
    expect(r, tally.accepted[i]).toMatchObject({ status: '0x1', transactionHash: tally.accepted[i] });
  for (const h of tally.accepted.slice(-20)) expect((await fetch(`${url}/api/v2/transactions/${h}`)).status).toBe(200);
  console.log(
    `load: ${tally.ok} answered, ${tally.rateLimited} rate limited, ${tally.accepted.length} transactions accepted and mined in ${SECONDS} s`,
  );

  // The same load, then SIGKILL while it runs.
  const killTally: Tally = { ok: 0, rateLimited: 0, errors: [], accepted: [] };
  let killed = false;
  const again = workload(url, () => killed, killTally, nonces);
  await new Promise((r) => setTimeout(r, 1_500));
  killed = true;
  node.proc.kill('SIGKILL');
  await node.exit;
  await Promise.all(again);

  const second = startCli(['--db', db, ...FLAGS]);
  const url2 = await second.url;
  try {
    const head = BigInt((await rpc<string>(url2, 'eth_blockNumber', [])).result!);
    const before = tally.accepted.length;
    expect(head).toBeGreaterThanOrEqual(BigInt(before));
    // Blocks link up, the nonces agree with the mined transactions, the explorer's head is the chain's.
    const blocks = await checkBatch<{ hash: string; parentHash: string; transactions: string[] }>(
      url2,
      Array.from({ length: Number(head) + 1 }, (_, n) => ({
        method: 'eth_getBlockByNumber',
        params: [`0x${n.toString(16)}`, false],
      })),
    );
    for (let n = 1; n < blocks.length; n++) expect(blocks[n].parentHash).toBe(blocks[n - 1].hash);
    const mined = new Set(blocks.flatMap((b) => b.transactions));
    for (const h of tally.accepted) expect(mined.has(h)).toBe(true);
    let total = 0;
    for (let i = 0; i < SENDERS; i++)
      total += Number(BigInt((await rpc<string>(url2, 'eth_getTransactionCount', [DEV[i], 'latest'])).result!));
    expect(total).toBe(mined.size);
    const page = (await (await fetch(`${url2}/api/v2/blocks`)).json()) as { items: { height: number; hash: string }[] };
    expect(page.items[0]).toMatchObject({ height: Number(head), hash: blocks[blocks.length - 1].hash });
    console.log(`kill: head ${head} after restart, ${killTally.accepted.length} accepted during the kill phase`);
  } finally {
    second.proc.kill('SIGTERM');
    expect((await second.exit).code).toBe(0);
  }
});
