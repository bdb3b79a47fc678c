/**
 * The `ashlar` command itself serves WebSocket on its HTTP host and port, prints the ws:// URL
 * in its banner, and ends WebSocket clients cleanly on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

const ROOT = resolve(import.meta.dirname, '..');
const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const p of running) p.kill('SIGKILL');
});

function startCli(): { proc: ChildProcess; urls: Promise<{ http: string; ws: string }> } {
  const proc = spawn(
    process.execPath,
    ['--conditions=@ashlar/source', '--import', 'tsx', 'packages/cli/src/bin.ts', '--memory', '--port', '0'],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  proc.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  running.add(proc);
  proc.once('exit', () => running.delete(proc));
  let out = '';
  const urls = new Promise<{ http: string; ws: string }>((res, rej) => {
    proc.stdout?.setEncoding('utf8');
    proc.stdout?.on('data', (d: string) => {
      out += d;
      const http = /Listening on (http:\/\/\S+)/.exec(out);
      const ws = /WebSocket on (ws:\/\/\S+)/.exec(out);
      if (http && ws) res({ http: http[1], ws: ws[1] });
    });
    proc.once('exit', (code) => rej(new Error(`ashlar exited (${code}) before listening: ${out}${err}`)));
  });
  return { proc, urls };
}

describe('ashlar (the command)', () => {
  it('serves JSON-RPC and subscriptions over WebSocket on the HTTP port', async () => {
    const { proc, urls } = startCli();
    const { http, ws: wsUrl } = await urls;
    expect(wsUrl).toBe(http.replace(/^http/, 'ws'));

    const ws = new WebSocket(wsUrl);
    const inbox: { id?: number; method?: string; result?: unknown; params?: { result: { number: string } } }[] = [];
    const next = (pred: (m: (typeof inbox)[number]) => boolean) =>
      new Promise<(typeof inbox)[number]>((res) => {
        const found = inbox.find(pred);
        if (found) return res(found);
        const on = () => {
          const f = inbox.find(pred);
          if (f) {
            ws.off('message', on);
            res(f);
          }
        };
        ws.on('message', on);
      });
    ws.on('message', (d) => inbox.push(JSON.parse(d.toString())));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
    const sub = await next((m) => m.id === 1);
    expect(sub.result).toMatch(/^0x[0-9a-f]{32}$/);

    // A transaction over HTTP shows up as a new head over WebSocket.
    await fetch(http, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_sendTransaction',
        params: [{ from: ACCOUNT0, to: ACCOUNT0, value: '0x1' }],
      }),
    });
    const head = await next((m) => m.method === 'eth_subscription');
    expect(head.params?.result.number).toBe('0x1');

    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    proc.kill('SIGTERM');
    expect(await closed).toBe(1001);
    expect(await exited).toBe(0);
  });
});
