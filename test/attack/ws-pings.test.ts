/**
 * Finding 6 of issue #20: one WebSocket client sent millions of pings and never read; every
 * pong waited in the node's send buffer (ws answers pings by itself, past the backlog limit
 * that only our own writes checked), and RSS grew by hundreds of MiB. Now pings past
 * maxPingsPerSecond go unanswered, ten times that cuts the client (close code 1008), and the
 * pongs count against maxBufferedBytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  type AttackNode,
  type Baseline,
  baseline,
  expectBack,
  eventually,
  report,
  rssMiB,
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

const PAYLOAD = Buffer.alloc(125, 0x61);

async function openClient(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  ws.on('error', () => {});
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return ws;
}

describe('a client that floods pings and never reads (#20 finding 6)', () => {
  it('is cut, probes are answered throughout, and memory and sockets come back', async () => {
    const baseConnections = await node.connections();
    const baseRss = rssMiB();
    const ws = await openClient(node.wsUrl);
    // Never read: what the node sends back piles up on its side.
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    let closed = false;
    ws.once('close', () => {
      closed = true;
    });
    const { m } = await underProbe(node.url, async () => {
      // Bounded: at most 200,000 pings (25 MB), in slices that let the loop turn.
      for (let i = 0; i < 200_000 && !closed && ws.readyState === WebSocket.OPEN; i++) {
        ws.ping(PAYLOAD);
        if (i % 2000 === 1999) await new Promise((r) => setImmediate(r));
      }
      await eventually(() => node.running.ws.stats().connections === 0, 'the flooding client to be cut', 10_000);
    });
    const stats = node.running.ws.stats();
    report('ws ping flood, never reading', m, `cut (droppedPingFloods ${stats.droppedPingFloods})`);
    expect(stats.droppedPingFloods).toBe(1);
    expect(m.failedProbes).toBe(0);
    expect(m.worstProbeMs).toBeLessThan(2000);
    ws.terminate();
    await eventually(async () => (await node.connections()) <= baseConnections, 'the socket to close');
    // Stated bound: the node keeps no backlog of pongs; RSS ends within 150 MiB of where it started.
    expect(rssMiB() - baseRss).toBeLessThan(150);
  });

  it('a client pinging at a modest rate keeps getting pongs', async () => {
    const ws = await openClient(node.wsUrl);
    let pongs = 0;
    ws.on('pong', () => pongs++);
    for (let i = 0; i < 20; i++) ws.ping(PAYLOAD);
    await eventually(() => pongs === 20, 'twenty pongs');
    ws.close();
  });
});

describe('after the attacks', () => {
  it('the node has closed their sockets and freed their memory', async () => {
    await expectBack(node, base);
  });
});
