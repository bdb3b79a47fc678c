// Issue #8, HTTPS: --tls-cert / --tls-key serve HTTPS and WSS on one port (a self-signed
// certificate made here with openssl; clients skip verification with rejectUnauthorized: false).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type AccessNode, call, startAccessNode } from './helpers/access.js';
import { runningClis, startCli } from './helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'ashlar-tls-'));
const certFile = join(tmp, 'cert.pem');
const keyFile = join(tmp, 'key.pem');

afterAll(() => {
  for (const p of runningClis) p.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

beforeAll(() => {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
    ],
    { stdio: 'ignore' },
  );
});

/** POST over HTTPS without verifying the self-signed certificate. */
function httpsPost(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', rejectUnauthorized: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function wssAsk(url: string, payload: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { rejectUnauthorized: false });
    ws.once('open', () => ws.send(JSON.stringify(payload)));
    ws.once('message', (d) => {
      resolve(JSON.parse(String(d)));
      ws.close();
    });
    ws.once('error', reject);
  });
}

describe('TLS from the library (startServer tls option)', () => {
  let node: AccessNode;
  beforeAll(async () => {
    node = await startAccessNode({ tls: { cert: readFileSync(certFile), key: readFileSync(keyFile) } });
  });
  afterAll(() => node.close());

  it('serves JSON-RPC over HTTPS and WSS on one port, and nothing in clear text', async () => {
    expect(node.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(node.wsUrl).toBe(node.url.replace('https', 'wss'));
    expect((await httpsPost(node.url, call('eth_chainId'))).json).toMatchObject({ result: '0x7a69' });
    expect(await wssAsk(node.wsUrl, call('eth_blockNumber', [], 2))).toMatchObject({ id: 2, result: '0x0' });
    // Plain HTTP on the TLS port gets no JSON-RPC answer.
    await expect(
      fetch(node.url.replace('https', 'http'), { method: 'POST', body: '{}' }).then((r) => r.json()),
    ).rejects.toThrow();
  });
});

describe('TLS from the command line', () => {
  it('--tls-cert and --tls-key serve HTTPS and WSS; one without the other is refused', async () => {
    const cli = startCli(['--memory', '--port', '0', '--tls-cert', certFile], { ASHLAR_TLS_KEY: keyFile });
    const url = await cli.url;
    try {
      expect(url).toMatch(/^https:/);
      expect((await httpsPost(url, call('eth_chainId'))).json).toMatchObject({ result: '0x7a69' });
      expect(await wssAsk(url.replace('https', 'wss'), call('eth_chainId', [], 3))).toMatchObject({
        id: 3,
        result: '0x7a69',
      });
    } finally {
      cli.proc.kill('SIGTERM');
      await cli.exit;
    }
    const half = startCli(['--memory', '--port', '0', '--tls-cert', certFile]);
    expect((await half.exit).code).toBe(1);
    expect(half.stderr()).toContain('--tls-cert and --tls-key go together');
  });
});
