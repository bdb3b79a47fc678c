import express from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expressMiddleware } from './express.js';
import { fakeEngine, fakeRoutes, INVALID_CONTENT_TYPE, postJson, raw, type Served, serve } from './testkit.js';

let server: Served | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chainId = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' };

async function start(parseJsonFirst: boolean) {
  const engine = fakeEngine();
  const onError = vi.fn();
  const app = express();
  if (parseJsonFirst) app.use(express.json());
  app.get('/health', (_req, res) => {
    res.type('text/plain').send('ok');
  });
  app.use(expressMiddleware({ engine, routes: fakeRoutes() }, { onError }));
  server = await serve(app);
  return { engine, onError, url: server.url, port: server.port };
}

describe.each([
  ['reading the stream itself', false],
  ['after express.json() parsed the body', true],
])('expressMiddleware, %s', (_name, parseJsonFirst) => {
  it('serves JSON-RPC, batches and notifications', async () => {
    const { url, engine } = await start(parseJsonFirst);
    const one = await postJson(url, chainId);
    expect(one.status).toBe(200);
    expect(JSON.parse(one.text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
    const batch = await postJson(url, [chainId, { ...chainId, id: 2 }]);
    expect(JSON.parse(batch.text)).toHaveLength(2);
    const note = await postJson(url, { jsonrpc: '2.0', method: 'x' });
    expect(note.status).toBe(200);
    expect(note.text).toBe('');
    expect(engine.payloads[0]).toEqual(chainId);
  });

  it('still refuses non-JSON content types with 415', async () => {
    const { port } = await start(parseJsonFirst);
    const res = await raw(port, { headers: { 'content-type': 'text/plain' }, chunks: ['{}'] });
    expect(res.status).toBe(415);
    expect(res.text).toBe(INVALID_CONTENT_TYPE);
  });

  it('serves REST routes, leaves the app its own routes and 404s the rest', async () => {
    const { url } = await start(parseJsonFirst);
    expect(await (await fetch(`${url}/api/v2/blocks/4`)).json()).toEqual({ height: 4, limit: null });
    expect(JSON.parse((await postJson(`${url}/api/v2/echo`, { a: 1 })).text)).toEqual({ got: { a: 1 } });
    expect(await (await fetch(`${url}/health`)).text()).toBe('ok');
    const missing = await fetch(`${url}/nope`);
    expect(missing.status).toBe(404);
    // express's own 404 page, not ours: the middleware called next().
    expect(missing.headers.get('content-type')).toMatch(/text\/html/);
  });
});

describe('expressMiddleware specifics', () => {
  it('uses the body express.json() already parsed', async () => {
    const engine = fakeEngine();
    const app = express();
    app.use(express.json());
    // Rewrite the parsed body: if the middleware re-read the stream it would see the original.
    app.use((req, _res, next) => {
      req.body = { ...req.body, id: 'rewritten' };
      next();
    });
    app.use(expressMiddleware({ engine }));
    server = await serve(app);
    const res = await postJson(server.url, chainId);
    expect(JSON.parse(res.text).id).toBe('rewritten');
  });

  it('works when mounted under a path', async () => {
    const engine = fakeEngine();
    const app = express();
    app.use('/rpc', expressMiddleware({ engine }));
    server = await serve(app);
    expect((await postJson(`${server.url}/rpc`, chainId)).status).toBe(200);
  });

  it('turns an engine rejection into 500 / -32603', async () => {
    const { url, onError } = await start(true);
    const res = await postJson(url, { jsonrpc: '2.0', id: 1, method: 'explode' });
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text).error).toEqual({ code: -32603, message: 'internal error' });
    expect(onError).toHaveBeenCalledOnce();
  });
});

describe('expressMiddleware under a mount prefix', () => {
  type Target = { engine: ReturnType<typeof fakeEngine>; routes: ReturnType<typeof fakeRoutes> };
  async function mount(use: (app: express.Express, target: Target) => void) {
    const engine = fakeEngine();
    const app = express();
    use(app, { engine, routes: fakeRoutes() });
    // The app answers what the node leaves to it, so a pass-through is visible.
    app.use((_req, res) => {
      res.status(418).type('text/plain').send('app');
    });
    server = await serve(app);
    return { engine, url: server.url };
  }

  it('serves /api/v2 routes at the explorer prefix and leaves /api/v2 to the app', async () => {
    const { url } = await mount((app, target) => {
      app.use(expressMiddleware(target, { path: '/rpc', explorerPrefix: '/explorer/api/v2' }));
    });
    const notes = await fetch(`${url}/explorer/api/v2/myapp/notes`);
    expect(notes.status).toBe(200);
    expect(await notes.json()).toEqual({ notes: [], path: '/api/v2/myapp/notes' });
    expect((await fetch(`${url}/explorer/api/v2/missing`)).status).toBe(404);
    const old = await fetch(`${url}/api/v2/myapp/notes`);
    expect(old.status).toBe(418);
    expect(await old.text()).toBe('app');
    expect(JSON.parse((await postJson(`${url}/rpc`, chainId)).text)).toMatchObject({ result: '0x7a69' });
  });

  it('mounts the explorer alone with rpc: false, also under app.use(path)', async () => {
    const { url, engine } = await mount((app, target) => {
      // express strips '/explorer' from req.url, so the node sees /api/v2/… and / there.
      app.use('/explorer', expressMiddleware(target, { rpc: false }));
      app.use(expressMiddleware({ engine: target.engine }, { path: '/rpc' }));
    });
    expect(await (await fetch(`${url}/explorer/api/v2/myapp/notes`)).json()).toEqual({
      notes: [],
      path: '/api/v2/myapp/notes',
    });
    const atMount = await postJson(`${url}/explorer`, chainId);
    expect(atMount.status).toBe(418);
    expect((await postJson(`${url}/api/v2/myapp/notes`, chainId)).status).toBe(418);
    // Only the RPC mount reached the engine.
    expect(JSON.parse((await postJson(`${url}/rpc`, chainId)).text)).toMatchObject({ result: '0x7a69' });
    expect(engine.payloads).toEqual([chainId]);
  });
});
