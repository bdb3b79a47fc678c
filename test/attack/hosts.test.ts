/**
 * Finding 13 of issue #20: a web page could drive an unkeyed node by DNS rebinding (its own
 * name pointed at 127.0.0.1: same-origin, so CORS never applies). geth refuses `Host` headers
 * outside `--http.vhosts` (default `localhost`) with 403 and lets IP literals and a missing
 * `Host` through; Ashlar does the same, over HTTP and WebSocket, with `--allowed-hosts` to add.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../helpers/contracts.js';
import { type AttackNode, type Baseline, baseline, expectBack, rpc, startAttackNode } from './harness.js';

let node: AttackNode;
let base: Baseline;
let opened: AttackNode;
beforeAll(async () => {
  node = await startAttackNode();
  opened = await startAttackNode({}, { allowedHosts: ['chain.internal.example', 'Other.Example'] });
  base = await baseline(node);
});
afterAll(async () => {
  await node?.close();
  await opened?.close();
});

const send = {
  jsonrpc: '2.0',
  id: 1,
  method: 'eth_sendTransaction',
  params: [{ from: DEV_ACCOUNTS[0].address, to: DEV_ACCOUNTS[1].address, value: '0x1' }],
};

function upgradeStatus(port: number, host: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      got += d;
      if (got.includes('\r\n')) {
        socket.destroy();
        resolve(got.split('\r\n')[0]);
      }
    });
    socket.on('error', () => {});
    socket.write(
      `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
  });
}

describe('Host header check (#20 finding 13)', () => {
  it('a rebinding page (Host evil.example) gets 403 and its transaction is never sent', async () => {
    const r = await rpc(node.url, send, { host: `evil.example:${node.port}`, origin: 'http://evil.example' });
    expect(r.status).toBe(403);
    expect(r.json()).toMatchObject({ id: null, error: { code: -32000 } });
    expect(r.text).toContain('invalid host specified');
    expect(r.text).toContain('--allowed-hosts');
    expect(await node.kernel.request({ method: 'eth_blockNumber' })).toBe('0x0');
  });

  it('the preflight and the explorer are refused too', async () => {
    const pre = await new Promise<number>((resolve, reject) => {
      const req = request(node.url, {
        method: 'OPTIONS',
        agent: false,
        headers: { host: 'evil.example', origin: 'http://evil.example', 'access-control-request-method': 'POST' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(pre).toBe(403);
    const rest = await rpc(`${node.url}/api/v2/stats`, '', { host: 'evil.example' });
    expect(rest.status).toBe(403);
  });

  it('localhost, 127.0.0.1, [::1], other IP literals and a bare Host pass', async () => {
    for (const host of [`localhost:${node.port}`, 'LOCALHOST', '127.0.0.1', `[::1]:${node.port}`, '10.1.2.3:8545']) {
      const r = await rpc(node.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }, { host });
      expect(r.status, host).toBe(200);
    }
  });

  it('the WebSocket upgrade follows the same rule', async () => {
    expect(await upgradeStatus(node.port, 'evil.example')).toBe('HTTP/1.1 403 Forbidden');
    expect(await upgradeStatus(node.port, `localhost:${node.port}`)).toBe('HTTP/1.1 101 Switching Protocols');
  });

  it('allowedHosts adds names, case-insensitively', async () => {
    for (const host of ['chain.internal.example:8545', 'other.example']) {
      const r = await rpc(opened.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }, { host });
      expect(r.status, host).toBe(200);
    }
    expect((await rpc(opened.url, send, { host: 'evil.example' })).status).toBe(403);
    expect(await upgradeStatus(opened.port, 'chain.internal.example')).toBe('HTTP/1.1 101 Switching Protocols');
  });
});

describe('after the attacks', () => {
  it('the node has closed their sockets and freed their memory', async () => {
    await expectBack(node, base);
  });
});
