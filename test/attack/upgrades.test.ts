/**
 * Finding 1 of issue #20: HTTP upgrades Ashlar does not serve (h2c, foo/1.0, WebSocket on a
 * path that is not an endpoint, Blockscout's Phoenix socket) were never answered, and each left
 * an open socket behind. Anvil and Hardhat answer them at once; so must we (400, then close).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AttackNode,
  type Baseline,
  baseline,
  expectBack,
  eventually,
  report,
  startAttackNode,
  underProbe,
} from './harness.js';

let node: AttackNode;
let base: Baseline;
beforeAll(async () => {
  node = await startAttackNode();
  base = await baseline(node);
});
afterAll(async () => {
  await node?.close();
});

/** Sends one raw request; resolves with what came back once the server closed, or 'timeout'. */
function rawRequest(port: number, text: string, waitMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`timeout${got ? `: ${got.slice(0, 40)}` : ''}`);
    }, waitMs);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      got += d;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
    socket.write(text);
  });
}

const wsHeaders =
  'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });

const CASES: Record<string, string> = {
  'h2c GET':
    'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n',
  'h2c POST with a JSON-RPC body': `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n${body}`,
  'foo/1.0 on /api/v2/stats':
    'GET /api/v2/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: foo/1.0\r\n\r\n',
  'websocket on /not-here': `GET /not-here HTTP/1.1\r\nHost: 127.0.0.1\r\n${wsHeaders}\r\n`,
  'websocket on /api/v2/blocks': `GET /api/v2/blocks HTTP/1.1\r\nHost: 127.0.0.1\r\n${wsHeaders}\r\n`,
  'websocket on /favicon.ico': `GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n${wsHeaders}\r\n`,
  "Blockscout's Phoenix socket": `GET /socket/v2/websocket?vsn=2.0.0 HTTP/1.1\r\nHost: 127.0.0.1\r\n${wsHeaders}\r\n`,
};

describe('upgrades nobody serves (#20 finding 1)', () => {
  for (const [name, text] of Object.entries(CASES)) {
    it(`${name}: 400 at once, and the socket is closed`, async () => {
      const answer = await rawRequest(node.port, text);
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
      const payload = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      expect(payload).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    });
  }

  it('400 such upgrades, 50 at a time: every one answered, probes answered throughout, no socket left', async () => {
    const baseline = await node.connections();
    const texts = Object.values(CASES);
    const { result, m } = await underProbe(node.url, async () => {
      const answers: string[] = [];
      for (let round = 0; round < 8; round++) {
        const batch = Array.from({ length: 50 }, (_, i) =>
          rawRequest(node.port, texts[(round * 50 + i) % texts.length]),
        );
        answers.push(...(await Promise.all(batch)));
      }
      return answers;
    });
    report('unserved upgrades x400', m, `${result.filter((a) => a.startsWith('HTTP/1.1 400')).length}/400 got 400`);
    expect(result.filter((a) => !a.startsWith('HTTP/1.1 400 '))).toEqual([]);
    expect(m.failedProbes).toBe(0);
    // Stated bound: a probe waits at most 2 s (each refusal is one small write).
    expect(m.worstProbeMs).toBeLessThan(2000);
    await eventually(async () => (await node.connections()) <= baseline, 'the sockets to be closed');
  });

  it('the JSON-RPC WebSocket endpoint still upgrades', async () => {
    const answer = await rawRequest(node.port, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n${wsHeaders}\r\n`, 500);
    expect(answer).toMatch(/^timeout: HTTP\/1\.1 101 Switching Protocols/);
  });
});

describe('after the attacks', () => {
  it('the node has closed their sockets and freed their memory', async () => {
    await expectBack(node, base);
  });
});
