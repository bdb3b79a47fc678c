import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runningClis, startCli } from './helpers/cli.js';
import { afterAll, expect, it } from 'vitest';

const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const ACCOUNT1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

const running = runningClis;
const tmp = mkdtempSync(join(tmpdir(), 'ashlar-kill-'));
afterAll(() => {
  for (const p of running) p.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

const cli = startCli;

interface RpcResponse<T> {
  id: number;
  result?: T;
  error?: { code: number; message: string };
}

let rpcId = 0;
async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const body = (await res.json()) as RpcResponse<T>;
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Many calls in JSON-RPC batches (of at most 500), results in order. */
async function batch<T>(url: string, calls: [string, unknown[]][]): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < calls.length; i += 500) {
    const chunk = calls.slice(i, i + 500).map(([method, params]) => ({ jsonrpc: '2.0', id: ++rpcId, method, params }));
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chunk),
    });
    const body = (await res.json()) as RpcResponse<T>[];
    const byId = new Map(body.map((r) => [r.id, r]));
    for (const req of chunk) {
      const r = byId.get(req.id)!;
      if (r.error) throw new Error(`${req.method}: ${r.error.message}`);
      out.push(r.result as T);
    }
  }
  return out;
}

it('SIGKILL mid-stream leaves a consistent chain on disk', { timeout: 30_000 }, async () => {
  const db = join(tmp, 'chain');
  const first = cli(['--db', db, '--port', '0']);
  const url = await first.url;

  // Stream eth_sendTransaction from 4 concurrent senders, then SIGKILL with requests in flight.
  // Nonces are assigned here, as a client nonce manager would: the node gives concurrent
  // nonce-less eth_sendTransaction calls from one account the same nonce ("already known",
  // see storage.test.ts).
  const acked: string[] = [];
  let nextNonce = 0;
  const errors: string[] = [];
  let inFlight = 0;
  let stop = false;
  const sender = async () => {
    while (!stop) {
      inFlight++;
      try {
        acked.push(
          await rpc<string>(url, 'eth_sendTransaction', [
            { from: ACCOUNT0, to: ACCOUNT1, value: '0x1', nonce: `0x${(nextNonce++).toString(16)}` },
          ]),
        );
      } catch (e) {
        // A JSON-RPC error is a failure; a broken connection is the kill.
        if (!String(e).includes('fetch failed')) errors.push(String(e));
        return; // the process is gone
      } finally {
        inFlight--;
      }
    }
  };
  const senders = Array.from({ length: 4 }, sender);
  await new Promise((r) => setTimeout(r, 2_000));
  const inFlightAtKill = inFlight;
  first.proc.kill('SIGKILL');
  const exited = await first.exit;
  stop = true;
  await Promise.all(senders);
  expect(errors).toEqual([]);
  expect(exited.signal).toBe('SIGKILL');
  expect(inFlightAtKill).toBeGreaterThan(0);
  expect(acked.length).toBeGreaterThan(10);

  const second = cli(['--db', db, '--port', '0']);
  const url2 = await second.url;
  try {
    const head = BigInt(await rpc<string>(url2, 'eth_blockNumber'));
    expect(head).toBeGreaterThan(0n);

    // The head is a complete block: every transaction in it has a receipt pointing back at it.
    const latest = await rpc<{ number: string; hash: string; transactions: string[] }>(url2, 'eth_getBlockByNumber', [
      'latest',
      false,
    ]);
    expect(BigInt(latest.number)).toBe(head);
    expect(latest.transactions.length).toBeGreaterThan(0);
    const headReceipts = await batch<{ blockHash: string; status: string } | null>(
      url2,
      latest.transactions.map((h) => ['eth_getTransactionReceipt', [h]]),
    );
    for (const r of headReceipts) expect(r).toMatchObject({ blockHash: latest.hash, status: '0x1' });

    // Account 0's nonce matches the transactions in blocks 1..head (it is the only sender).
    const numbers = Array.from({ length: Number(head) }, (_, i) => `0x${(i + 1).toString(16)}`);
    const blocks = await batch<{ transactions: string[]; parentHash: string; hash: string }>(
      url2,
      numbers.map((n) => ['eth_getBlockByNumber', [n, false]]),
    );
    const mined = blocks.flatMap((b) => b.transactions);
    const nonce = BigInt(await rpc<string>(url2, 'eth_getTransactionCount', [ACCOUNT0, 'latest']));
    expect(nonce).toBe(BigInt(mined.length));
    for (let i = 1; i < blocks.length; i++) expect(blocks[i].parentHash).toBe(blocks[i - 1].hash);

    // Every acknowledged hash that made it into a block has its receipt.
    const txs = await batch<{ blockNumber: string | null } | null>(
      url2,
      acked.map((h) => ['eth_getTransactionByHash', [h]]),
    );
    const inBlocks = acked.filter((_, i) => txs[i]?.blockNumber != null);
    const receipts = await batch<{ transactionHash: string; status: string } | null>(
      url2,
      inBlocks.map((h) => ['eth_getTransactionReceipt', [h]]),
    );
    for (const [i, h] of inBlocks.entries()) expect(receipts[i]).toMatchObject({ transactionHash: h, status: '0x1' });
    const minedSet = new Set(mined);
    const lost = acked.filter((h) => !minedSet.has(h));
    console.log(
      `kill test: ${acked.length} acknowledged, ${inFlightAtKill} in flight at SIGKILL, head ${head}, ` +
        `${mined.length} mined after restart, ${lost.length} acknowledged but not on disk`,
    );
  } finally {
    second.proc.kill('SIGTERM');
    expect((await second.exit).code).toBe(0);
  }
});
