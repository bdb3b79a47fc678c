import { createServer } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { attachWebSocket } from './attachWebSocket.js';
import type { EngineCloseHook } from './coreTypes.js';
import { call, closed, connect, fakeEngine, Inbox, type Served, serve, silentLogger } from './testkit.js';

const running: Served[] = [];
async function start(...args: Parameters<typeof serve>): Promise<Served> {
  const s = await serve(...args);
  running.push(s);
  return s;
}
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

describe('JSON-RPC over WebSocket', () => {
  it('answers single calls and batches, and nothing for notifications', async () => {
    const { base } = await start(fakeEngine());
    const ws = await connect(base);
    const inbox = new Inbox(ws);
    expect(await call(ws, inbox, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: '0x7a69',
    });
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId' }));
    const batch = await call(ws, inbox, [
      { jsonrpc: '2.0', id: 'a', method: 'echo', params: [1] },
      { jsonrpc: '2.0', method: 'echo', params: [2] },
      { jsonrpc: '2.0', id: 'b', method: 'nope' },
    ]);
    // The notification before the batch produced no message: the batch answer is next.
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 'a', result: [1] },
      { jsonrpc: '2.0', id: 'b', error: { code: -32601, message: 'the method nope does not exist' } },
    ]);
    ws.close();
  });

  it('answers a malformed frame with -32700 and keeps the connection', async () => {
    const { base } = await start(fakeEngine());
    const ws = await connect(base);
    const inbox = new Inbox(ws);
    ws.send('{"jsonrpc":');
    const err = await inbox.next();
    expect(err).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(String((err as { error: { message: string } }).error.message)).toMatch(/^parse error: /);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect(await call(ws, inbox, { jsonrpc: '2.0', id: 2, method: 'eth_chainId' })).toMatchObject({ result: '0x7a69' });
    ws.close();
  });

  it('closes with 1003 on a binary frame', async () => {
    const { base } = await start(fakeEngine());
    const ws = await connect(base);
    const done = closed(ws);
    ws.send(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}'), { binary: true });
    expect(await done).toEqual({ code: 1003, reason: expect.stringMatching(/binary frames are not supported/) });
  });

  it('closes with 1009 on a frame over maxFrameBytes', async () => {
    const { base, endpoint } = await start(fakeEngine(), { maxFrameBytes: 1024 });
    const ws = await connect(base);
    const done = closed(ws);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: ['x'.repeat(2000)] }));
    expect((await done).code).toBe(1009);
    await vi.waitFor(() => expect(endpoint.stats().connections).toBe(0));
  });
});

describe('upgrade routing', () => {
  it('serves its path and leaves other upgrades to other listeners', async () => {
    const server = createServer();
    const other = new WebSocketServer({ noServer: true });
    server.on('upgrade', (req, socket, head) => {
      if (req.url !== '/other') return;
      other.handleUpgrade(req, socket, head, (ws) => ws.send('other app'));
    });
    const { base, endpoint } = await start(fakeEngine(), { path: '/rpc/' }, server);

    const mine = await connect(`${base}/rpc?token=1`);
    const inbox = new Inbox(mine);
    expect(await call(mine, inbox, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).toMatchObject({
      result: '0x7a69',
    });
    expect(endpoint.stats().connections).toBe(1);

    const theirs = new WebSocket(`${base}/other`);
    const text = await new Promise<string>((resolve) => theirs.once('message', (d) => resolve(d.toString())));
    expect(text).toBe('other app');
    expect(endpoint.stats().connections).toBe(1);
    theirs.close();
    mine.close();
    other.close();
  });

  it('refuses connections past maxConnections with HTTP 503 and a JSON-RPC error body', async () => {
    const { base, endpoint } = await start(fakeEngine(), { maxConnections: 2 });
    const a = await connect(base);
    const b = await connect(base);
    const refused = await new Promise<{ status: number; body: string; type: string | undefined }>((resolve) => {
      const c = new WebSocket(base);
      c.on('error', () => {});
      c.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += d.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: res.headers['content-type'] }));
      });
    });
    expect(refused.status).toBe(503);
    expect(refused.type).toBe('application/json');
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32005,
        message: expect.stringMatching(/too many WebSocket connections: limit is 2 \(maxConnections\)/),
      },
    });
    expect(endpoint.stats().refusedConnections).toBe(1);
    // A slot that frees up can be taken again.
    a.close();
    await vi.waitFor(() => expect(endpoint.stats().connections).toBe(1));
    const d = await connect(base);
    d.close();
    b.close();
  });

  it('rejects bad options naming them', () => {
    const server = createServer();
    const engine = fakeEngine();
    expect(() => attachWebSocket({ engine }, server, { path: 'rpc' })).toThrow(
      /path must be a string starting with "\/"/,
    );
    expect(() => attachWebSocket({ engine }, server, { maxConnections: 0 })).toThrow(
      /maxConnections must be a positive integer/,
    );
    expect(() => attachWebSocket({ engine }, server, { heartbeatMs: -1 })).toThrow(
      /heartbeatMs must be a non-negative integer/,
    );
    expect(server.listenerCount('upgrade')).toBe(0);
  });
});

describe('subscriptions', () => {
  it('refuses eth_subscribe past maxSubscriptionsPerConnection, naming the limit', async () => {
    const { base, endpoint } = await start(fakeEngine(), { maxSubscriptionsPerConnection: 2 });
    const ws = await connect(base);
    const inbox = new Inbox(ws);
    const sub = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_subscribe', params: ['newHeads'] });
    const first = await call<{ result: string }>(ws, inbox, sub(1));
    await call(ws, inbox, sub(2));
    const third = await call(ws, inbox, sub(3));
    expect(third).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32005, message: expect.stringMatching(/too many subscriptions: limit is 2 per connection/) },
    });
    expect(endpoint.stats().subscriptions).toBe(2);
    // In a batch, only the calls over the limit are refused.
    await call(ws, inbox, { jsonrpc: '2.0', id: 4, method: 'eth_unsubscribe', params: [first.result] });
    const batch = await call<{ id: number }[]>(ws, inbox, [
      sub(5),
      sub(6),
      { jsonrpc: '2.0', id: 7, method: 'eth_chainId' },
    ]);
    expect(batch.map((r) => r.id).sort()).toEqual([5, 6, 7]);
    expect(batch.find((r) => r.id === 6)).toMatchObject({ error: { code: -32005 } });
    ws.close();
  });

  it('delivers notifications, never ahead of the eth_subscribe answer', async () => {
    const engine = fakeEngine();
    // An engine that notifies while the subscribe call is still in flight.
    const racing = {
      async handle(payload: unknown, ctx?: Parameters<typeof engine.handle>[1]) {
        const out = await engine.handle(payload, ctx);
        engine.notifyAll('early');
        await new Promise((r) => setImmediate(r));
        return out;
      },
    };
    const { base } = await start(racing);
    const ws = await connect(base);
    const inbox = new Inbox(ws);
    const answer = await call<{ result: string }>(ws, inbox, {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_subscribe',
      params: ['x'],
    });
    expect(answer.result).toMatch(/^0x/);
    expect(await inbox.next()).toEqual({
      jsonrpc: '2.0',
      method: 'eth_subscription',
      params: { subscription: answer.result, result: 'early' },
    });
    ws.close();
  });
});

describe('heartbeat', () => {
  it('keeps answering peers and drops one that stops answering pings', async () => {
    const { base, endpoint } = await start(fakeEngine(), { heartbeatMs: 40 });
    const healthy = await connect(base);
    let pings = 0;
    healthy.on('ping', () => pings++);
    const dead = await connect(base, { autoPong: false });
    const deadClosed = closed(dead);
    // Abnormal closure: the server cut the socket without a close frame.
    expect((await deadClosed).code).toBe(1006);
    await vi.waitFor(() => expect(pings).toBeGreaterThanOrEqual(3));
    expect(healthy.readyState).toBe(WebSocket.OPEN);
    expect(endpoint.stats()).toMatchObject({ connections: 1, droppedDeadPeers: 1 });
    healthy.close();
  });
});

describe('slow consumers', () => {
  it('cuts a client that stops reading once its backlog passes maxBufferedBytes', async () => {
    const engine = fakeEngine();
    const limit = 256 * 1024;
    const { base, endpoint } = await start(engine, { maxBufferedBytes: limit });
    const slow = await connect(base);
    const slowInbox = new Inbox(slow);
    await call(slow, slowInbox, { jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['x'] });
    const fast = await connect(base);
    const fastInbox = new Inbox(fast);
    await call(fast, fastInbox, { jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['x'] });
    slow.pause();

    const payload = { data: 'ab'.repeat(16 * 1024) };
    let peak = 0;
    let sent = 0;
    // Loopback socket buffers swallow megabytes before Node has to buffer: keep going until cut.
    while (endpoint.stats().droppedSlowConsumers === 0 && sent < 5_000) {
      engine.notifyAll({ ...payload, n: sent++ });
      peak = Math.max(peak, endpoint.stats().bufferedBytes);
      // Let the fast client read, as a real event loop would between blocks.
      await new Promise((r) => setImmediate(r));
    }
    expect(endpoint.stats().droppedSlowConsumers).toBe(1);
    // Bounded: the limit, plus the message that crossed it, plus what the fast reader has in flight.
    expect(peak).toBeLessThanOrEqual(limit + 2 * (JSON.stringify(payload).length + 200));
    await vi.waitFor(() => expect(endpoint.stats().connections).toBe(1));
    expect(endpoint.stats().bufferedBytes).toBeLessThan(limit);
    // The reader that kept up got everything, in order.
    await vi.waitFor(() => expect(fastInbox.messages.length).toBe(1 + sent));
    const ns = fastInbox.messages.slice(1).map((m) => (m as { params: { result: { n: number } } }).params.result.n);
    expect(ns).toEqual([...Array(sent).keys()]);
    fast.close();
    slow.terminate();
  });
});

describe('close()', () => {
  it('ends every connection with 1001, detaches and refuses later upgrades', async () => {
    const server = createServer();
    const s = await serve(fakeEngine(), { heartbeatMs: 10_000, logger: silentLogger }, server);
    const a = await connect(s.base);
    const b = await connect(s.base);
    const done = Promise.all([closed(a), closed(b)]);
    await s.endpoint.close();
    expect((await done).map((c) => c.code)).toEqual([1001, 1001]);
    expect(s.endpoint.stats().connections).toBe(0);
    expect(server.listenerCount('upgrade')).toBe(0);
    // close() is idempotent.
    await s.endpoint.close();
    await s.close();
  });
});

/** A fake engine that offers onClose, as the kernel does: `closeEngine()` runs what transports registered. */
function closableEngine() {
  const engine = fakeEngine();
  const hooks = new Set<EngineCloseHook>();
  const refusal = { code: -32603, message: 'the chain is closed' };
  return Object.assign(engine, {
    hooks,
    onClose(hook: EngineCloseHook) {
      hooks.add(hook);
      return () => {
        hooks.delete(hook);
      };
    },
    closeEngine: () => Promise.all([...hooks].map((h) => h(refusal))),
  });
}

describe('the engine closing first', () => {
  it('ends every connection with 1001 and answers later upgrades 503 with its refusal, until close()', async () => {
    const server = createServer();
    const engine = closableEngine();
    const s = await serve(engine, { logger: silentLogger }, server);
    expect(engine.hooks.size).toBe(1);
    const a = await connect(s.base);
    const inbox = new Inbox(a);
    await call(a, inbox, { jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] });
    expect(s.endpoint.stats().subscriptions).toBe(1);
    const done = closed(a);
    await engine.closeEngine();
    expect((await done).code).toBe(1001);
    expect(s.endpoint.stats()).toMatchObject({ connections: 0, subscriptions: 0 });
    const refused = await new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
      const late = new WebSocket(s.base);
      late.once('open', () => reject(new Error('upgraded after the engine closed')));
      late.once('error', () => {});
      late.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += String(c);
        });
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
    });
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32603, message: 'the chain is closed' },
    });
    // The endpoint's own close after the engine's: detaches from the server, harmlessly.
    await s.endpoint.close();
    expect(server.listenerCount('upgrade')).toBe(0);
    expect(engine.hooks.size).toBe(0);
    await s.close();
  });

  it('an endpoint closed first unregisters from the engine', async () => {
    const engine = closableEngine();
    const s = await serve(engine, { logger: silentLogger });
    await s.endpoint.close();
    expect(engine.hooks.size).toBe(0);
    await engine.closeEngine();
    await s.close();
  });
});
