/**
 * The handler on an engine that offers onClose (the kernel does): once the engine closes, what
 * is in flight still answers, the engine's close waits for it, and every answer from then on
 * carries Connection: close so kept-alive sockets end after it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineCloseHook, RpcEngine } from './coreTypes.js';
import { createHttpHandler } from './handler.js';

/** Answers `hold` only when released, anything else at once; closeEngine() runs the hooks. */
function closableEngine() {
  const hooks = new Set<EngineCloseHook>();
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  let enter!: () => void;
  const entered = new Promise<void>((r) => {
    enter = r;
  });
  const engine: RpcEngine = {
    async handle(payload) {
      const { id, method } = payload as { id: number; method: string };
      if (method === 'hold') {
        enter();
        await released;
      }
      return { jsonrpc: '2.0', id, result: method };
    },
    onClose(hook) {
      hooks.add(hook);
      return () => hooks.delete(hook);
    },
  };
  const closeEngine = () => Promise.all([...hooks].map((h) => h({ code: -32603, message: 'closed' })));
  return { engine, hooks, entered, release, closeEngine };
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (!server) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  server = undefined;
});

async function listen(listener: Parameters<typeof createServer>[0]): Promise<string> {
  server = createServer(listener);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('createHttpHandler on an engine that closes', () => {
  it('keeps connections alive while the engine is open, then answers in flight and closes them', async () => {
    const e = closableEngine();
    const url = await listen(createHttpHandler({ engine: e.engine }));
    expect(e.hooks.size).toBe(1);
    const open = await post(url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' });
    expect(open.headers.get('connection')).toBe('keep-alive');
    await open.json();

    const held = post(url, { jsonrpc: '2.0', id: 2, method: 'hold' });
    await e.entered;
    let engineClosed = false;
    const closing = e.closeEngine().then(() => {
      engineClosed = true;
    });
    // The engine's close waits for the answer in flight: it cannot have finished before release.
    await new Promise((r) => setImmediate(r));
    expect(engineClosed).toBe(false);
    e.release();
    const res = await held;
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 2, result: 'hold' });
    await closing;

    const after = await post(url, { jsonrpc: '2.0', id: 3, method: 'eth_chainId' });
    expect(after.headers.get('connection')).toBe('close');
    await after.json();
  });
});
