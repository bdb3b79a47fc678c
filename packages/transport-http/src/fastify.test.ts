import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fastifyPlugin } from './fastify.js';
import type { HttpHandlerOptions } from './options.js';
import { fakeEngine, fakeRoutes, INVALID_CONTENT_TYPE, postJson, raw } from './testkit.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const chainId = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' };

async function start(options: HttpHandlerOptions = {}, prefix?: string) {
  const engine = fakeEngine();
  const routes = fakeRoutes();
  const onError = vi.fn();
  app = Fastify();
  app.get('/health', async () => 'ok');
  await app.register(fastifyPlugin({ engine, routes }, { onError, ...options }), prefix ? { prefix } : {});
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  return { engine, routes, onError, url: address, port };
}

describe('fastifyPlugin', () => {
  it('serves JSON-RPC from fastify-parsed bodies, batches and notifications', async () => {
    const { url, engine } = await start();
    const one = await postJson(url, chainId);
    expect(one.status).toBe(200);
    expect(JSON.parse(one.text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
    expect(one.headers.get('content-type')).toMatch(/^application\/json/);
    expect(one.headers.get('access-control-allow-origin')).toBe('*');
    expect(JSON.parse((await postJson(url, [chainId, { ...chainId, id: 2 }])).text)).toHaveLength(2);
    const note = await postJson(url, { jsonrpc: '2.0', method: 'x' });
    expect(note.status).toBe(200);
    expect(note.text).toBe('');
    expect(engine.payloads[0]).toEqual(chainId);
  });

  it('serves keyed endpoints and refuses unknown keys with 401', async () => {
    const key = 'fastify-key-0123456789';
    const { url } = await start({ access: { apiKeys: [key], requireApiKey: true } });
    expect(JSON.parse((await postJson(`${url}/api/v1/${key}`, chainId)).text)).toMatchObject({ result: '0x7a69' });
    const unknown = await postJson(`${url}/api/v1/not-the-key-000000000`, chainId);
    expect(unknown.status).toBe(401);
    expect(unknown.text).not.toContain('not-the-key');
    expect((await postJson(url, chainId)).status).toBe(401);
  });

  it('maps fastify parser errors to the plain handler answers', async () => {
    const { url, port } = await start({ maxBodyBytes: 1024 });
    const parse = await postJson(url, '{"broken');
    expect(parse.status).toBe(200);
    expect(JSON.parse(parse.text)).toMatchObject({ id: null, error: { code: -32700 } });
    const empty = await raw(port, { headers: { 'content-type': 'application/json', 'content-length': '0' } });
    expect(empty.status).toBe(200);
    expect(JSON.parse(empty.text).error.code).toBe(-32700);
    const types: Record<string, string>[] = [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/xml' },
      {},
    ];
    for (const headers of types) {
      const res = await raw(port, { headers, chunks: ['{}'] });
      expect(res.status, JSON.stringify(headers)).toBe(415);
      expect(res.text).toBe(INVALID_CONTENT_TYPE);
    }
    const big = await postJson(url, { pad: 'x'.repeat(2000) });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.text).error).toEqual({
      code: -32600,
      message: 'request body too large: limit is 1024 bytes (maxBodyBytes)',
    });
  });

  it('turns an engine rejection into 500 / -32603', async () => {
    const { url, onError } = await start();
    const res = await postJson(url, { jsonrpc: '2.0', id: 1, method: 'explode' });
    expect(res.status).toBe(500);
    expect(res.text).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}');
    expect(onError).toHaveBeenCalledOnce();
  });

  it('answers preflights with 204 and leaves GET / to the app', async () => {
    const { url } = await start();
    const pre = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://dapp.test' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(url)).status).toBe(404);
    expect(await (await fetch(`${url}/health`)).text()).toBe('ok');
  });

  it('does not claim OPTIONS when CORS is off', async () => {
    const { url } = await start({ cors: false });
    expect((await fetch(url, { method: 'OPTIONS' })).status).toBe(404);
    expect((await postJson(url, chainId)).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves REST routes under the prefix, with 404 and 500 as the plain handler', async () => {
    const { url, port, routes, onError } = await start();
    const block = await fetch(`${url}/api/v2/blocks/7?limit=3`);
    expect(block.status).toBe(200);
    expect(block.headers.get('x-route')).toBe('block');
    expect(await block.json()).toEqual({ height: 7, limit: '3' });
    expect(routes.requests[0]?.query.get('limit')).toBe('3');
    const head = await raw(port, { method: 'HEAD', path: '/api/v2/blocks/7' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(JSON.parse((await postJson(`${url}/api/v2/echo`, { a: 1 })).text)).toEqual({ got: { a: 1 } });
    const bad = await postJson(`${url}/api/v2/echo`, '{bad');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toEqual({ message: 'Invalid JSON body' });
    const missing = await fetch(`${url}/api/v2/nothing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Not found' });
    expect((await fetch(`${url}/api/v2`)).status).toBe(404);
    const boom = await fetch(`${url}/api/v2/boom`);
    expect(boom.status).toBe(500);
    expect(await boom.json()).toEqual({ message: 'Internal server error' });
    expect(onError).toHaveBeenCalledOnce();
  });

  it('works under a register prefix', async () => {
    const { url } = await start({}, '/chain');
    expect((await postJson(`${url}/chain`, chainId)).status).toBe(200);
    expect((await postJson(`${url}/chain/`, chainId)).status).toBe(200);
    expect(await (await fetch(`${url}/chain/api/v2/blocks/1`)).json()).toEqual({ height: 1, limit: null });
    expect((await postJson(url, chainId)).status).toBe(404);
  });

  it('serves a custom RPC path', async () => {
    const { url } = await start({ path: '/rpc' });
    expect((await postJson(`${url}/rpc`, chainId)).status).toBe(200);
  });

  it('serves /api/v2 routes at the explorer prefix and leaves /api/v2 to the app', async () => {
    const { url, routes } = await start({ path: '/rpc', explorerPrefix: '/explorer/api/v2' });
    const notes = await fetch(`${url}/explorer/api/v2/myapp/notes`);
    expect(notes.status).toBe(200);
    // The route sees its registry path, not the public one.
    expect(await notes.json()).toEqual({ notes: [], path: '/api/v2/myapp/notes' });
    expect(routes.requests.map((r) => r.path)).toEqual(['/api/v2/myapp/notes']);
    expect((await fetch(`${url}/explorer/api/v2/missing`)).status).toBe(404);
    // Not mounted at /api/v2: fastify's own 404, not the node's.
    const old = await fetch(`${url}/api/v2/myapp/notes`);
    expect(old.status).toBe(404);
    expect(await old.json()).not.toEqual({ message: 'Not found' });
    expect(JSON.parse((await postJson(`${url}/rpc`, chainId)).text)).toMatchObject({ result: '0x7a69' });
  });

  it('mounts the explorer alone with rpc: false, also under a register prefix', async () => {
    const { url, engine } = await start({ rpc: false }, '/explorer');
    expect(await (await fetch(`${url}/explorer/api/v2/myapp/notes`)).json()).toEqual({
      notes: [],
      path: '/api/v2/myapp/notes',
    });
    const atMount = await postJson(`${url}/explorer`, chainId);
    expect(atMount.status).toBe(404);
    expect(atMount.text).not.toContain('jsonrpc');
    expect(engine.payloads).toEqual([]);
  });
});
