import type { IncomingMessage } from 'node:http';
import Koa from 'koa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { koaMiddleware } from './koa.js';
import { fakeEngine, fakeRoutes, INVALID_CONTENT_TYPE, postJson, raw, type Served, serve } from './testkit.js';

let server: Served | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chainId = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' };

/** A minimal stand-in for @koa/bodyparser: drains the stream and sets ctx.request.body. */
function jsonBodyParser(rewrite: (body: unknown) => unknown): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'POST' && ctx.is('application/json')) {
      const text = await readAll(ctx.req);
      (ctx.request as { body?: unknown }).body = rewrite(JSON.parse(text));
    }
    await next();
  };
}

async function readAll(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

async function start(first?: Koa.Middleware) {
  const engine = fakeEngine();
  const onError = vi.fn();
  const app = new Koa();
  if (first) app.use(first);
  app.use(async (ctx, next) => {
    if (ctx.path === '/health') {
      ctx.body = 'ok';
      return;
    }
    await next();
  });
  app.use(koaMiddleware({ engine, routes: fakeRoutes() }, { onError, maxBodyBytes: 4096 }));
  server = await serve(app.callback());
  return { engine, onError, url: server.url, port: server.port };
}

describe('koaMiddleware', () => {
  it('serves JSON-RPC, batches and notifications', async () => {
    const { url } = await start();
    const one = await postJson(url, chainId);
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('application/json');
    expect(one.headers.get('access-control-allow-origin')).toBe('*');
    expect(JSON.parse(one.text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
    expect(JSON.parse((await postJson(url, [chainId, chainId])).text)).toHaveLength(2);
    const note = await postJson(url, { jsonrpc: '2.0', method: 'x' });
    expect(note.status).toBe(200);
    expect(note.text).toBe('');
  });

  it('gives the same errors as the plain handler', async () => {
    const { url, port, onError } = await start();
    const type = await raw(port, { headers: { 'content-type': 'text/plain' }, chunks: ['{}'] });
    expect(type.status).toBe(415);
    expect(type.text).toBe(INVALID_CONTENT_TYPE);
    const parse = await postJson(url, '{');
    expect(parse.status).toBe(200);
    expect(JSON.parse(parse.text).error.code).toBe(-32700);
    const big = await postJson(url, { pad: 'x'.repeat(5000) });
    expect(big.status).toBe(413);
    const boom = await postJson(url, { jsonrpc: '2.0', id: 1, method: 'explode' });
    expect(boom.status).toBe(500);
    expect(onError).toHaveBeenCalledOnce();
    expect((await fetch(url)).status).toBe(405);
  });

  it('answers preflights with 204', async () => {
    const { url } = await start();
    const pre = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://dapp.test' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('serves REST routes, 404s unknown ones under the prefix and a throwing handler with 500', async () => {
    const { url } = await start();
    expect(await (await fetch(`${url}/api/v2/blocks/9?limit=2`)).json()).toEqual({ height: 9, limit: '2' });
    const missing = await fetch(`${url}/api/v2/missing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Not found' });
    const boom = await fetch(`${url}/api/v2/boom`);
    expect(boom.status).toBe(500);
    expect(await boom.json()).toEqual({ message: 'Internal server error' });
  });

  it('leaves other paths to the app', async () => {
    const { url } = await start();
    expect(await (await fetch(`${url}/health`)).text()).toBe('ok');
    expect((await fetch(`${url}/elsewhere`)).status).toBe(404);
  });

  it('uses ctx.request.body when a body parser already read the stream', async () => {
    const { url, engine } = await start(jsonBodyParser((b) => ({ ...(b as object), id: 'parsed' })));
    const res = await postJson(url, chainId);
    expect(JSON.parse(res.text).id).toBe('parsed');
    expect(engine.payloads).toEqual([{ ...chainId, id: 'parsed' }]);
  });
});

describe('koaMiddleware under a mount prefix', () => {
  /** The app answers what the node leaves to it with its own marker, so a pass-through is visible. */
  async function mount(options: Parameters<typeof koaMiddleware>[1]) {
    const engine = fakeEngine();
    const app = new Koa();
    app.use(koaMiddleware({ engine, routes: fakeRoutes() }, options));
    app.use(async (ctx) => {
      ctx.status = 418;
      ctx.body = 'app';
    });
    server = await serve(app.callback());
    return { engine, url: server.url };
  }

  it('serves /api/v2 routes at the explorer prefix and leaves /api/v2 to the app', async () => {
    const { url } = await mount({ path: '/rpc', explorerPrefix: '/explorer/api/v2' });
    const notes = await fetch(`${url}/explorer/api/v2/myapp/notes`);
    expect(notes.status).toBe(200);
    // The route sees its registry path, not the public one.
    expect(await notes.json()).toEqual({ notes: [], path: '/api/v2/myapp/notes' });
    expect(await (await fetch(`${url}/explorer/api/v2/blocks/9?limit=2`)).json()).toEqual({ height: 9, limit: '2' });
    expect((await fetch(`${url}/explorer/api/v2/missing`)).status).toBe(404);
    const old = await fetch(`${url}/api/v2/myapp/notes`);
    expect(old.status).toBe(418);
    expect(await old.text()).toBe('app');
    // Routes outside /api/v2 keep their own paths.
    expect(await (await fetch(`${url}/plugin/hello`)).json()).toEqual({ hello: 'world' });
    expect(JSON.parse((await postJson(`${url}/rpc`, chainId)).text)).toMatchObject({ result: '0x7a69' });
  });

  it('mounts the explorer alone with rpc: false', async () => {
    const { url, engine } = await mount({ rpc: false, explorerPrefix: '/explorer/api/v2' });
    expect((await fetch(`${url}/explorer/api/v2/myapp/notes`)).status).toBe(200);
    const root = await postJson(url, chainId);
    expect(root.status).toBe(418);
    const atPrefix = await postJson(`${url}/explorer/api/v2`, chainId);
    expect(atPrefix.status).toBe(404);
    expect(JSON.parse(atPrefix.text)).toEqual({ message: 'Not found' });
    expect(engine.payloads).toEqual([]);
  });
});
