import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpHandler } from './handler.js';
import type { HttpHandlerOptions } from './options.js';
import { fakeEngine, fakeRoutes, INVALID_CONTENT_TYPE, postJson, raw, type Served, serve } from './testkit.js';

let server: Served | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: HttpHandlerOptions = {}, withRoutes = true) {
  const engine = fakeEngine();
  const routes = fakeRoutes();
  const onError = vi.fn();
  const handler = createHttpHandler(withRoutes ? { engine, routes } : { engine }, { onError, ...options });
  server = await serve(handler);
  return { engine, routes, onError, url: server.url, port: server.port };
}

const chainId = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] };

describe('JSON-RPC over POST', () => {
  it('answers a single request with JSON, Content-Length and keep-alive', async () => {
    const { url, engine } = await start();
    const res = await postJson(url, chainId);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(res.text)));
    expect(res.headers.get('connection')).toBe('keep-alive');
    expect(engine.payloads).toEqual([chainId]);
  });

  it('accepts application/json with parameters, in any case', async () => {
    const { url } = await start();
    for (const type of ['application/json; charset=utf-8', 'Application/JSON;charset=UTF-8', ' application/json ']) {
      const res = await postJson(url, chainId, { 'content-type': type });
      expect(res.status, type).toBe(200);
    }
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['application/json-rpc', { 'content-type': 'application/json-rpc' }],
    ['a missing content type', {}],
  ])('refuses %s with 415 and a JSON-RPC error body', async (_name, headers) => {
    const { port, engine } = await start();
    const res = await raw(port, { headers, chunks: [JSON.stringify(chainId)] });
    expect(res.status).toBe(415);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).toBe(INVALID_CONTENT_TYPE);
    expect(engine.payloads).toEqual([]);
  });

  it('answers invalid JSON with HTTP 200 and -32700', async () => {
    const { url, engine } = await start();
    const res = await postJson(url, '{"jsonrpc":"2.0",');
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(body.error.message).toMatch(/^parse error: /);
    expect(engine.payloads).toEqual([]);
  });

  it('answers an empty body with -32700', async () => {
    const { port } = await start();
    const res = await raw(port, { headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).error.code).toBe(-32700);
  });

  it('answers notification-only bodies with an empty 200', async () => {
    const { url, engine } = await start();
    const single = await postJson(url, { jsonrpc: '2.0', method: 'eth_chainId' });
    expect(single.status).toBe(200);
    expect(single.text).toBe('');
    expect(single.headers.get('content-length')).toBe('0');
    const batch = await postJson(url, [
      { jsonrpc: '2.0', method: 'a' },
      { jsonrpc: '2.0', method: 'b' },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.text).toBe('');
    expect(engine.payloads).toHaveLength(2);
  });

  it('passes batches through as arrays, in order', async () => {
    const { url, engine } = await start();
    const batch = [
      chainId,
      { jsonrpc: '2.0', method: 'note' },
      { jsonrpc: '2.0', id: 'b', method: 'echo', params: [7] },
    ];
    const res = await postJson(url, batch);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 'b', result: [7] },
    ]);
    expect(engine.payloads).toEqual([batch]);
  });

  it('hands non-object JSON to the engine unchanged', async () => {
    const { url, engine } = await start();
    const res = await postJson(url, '42');
    expect(JSON.parse(res.text).error.code).toBe(-32600);
    expect(engine.payloads).toEqual([42]);
  });

  it('refuses a declared oversize body with 413 before reading it', async () => {
    const { port, engine } = await start({ maxBodyBytes: 64 });
    const body = JSON.stringify({ ...chainId, params: ['x'.repeat(200)] });
    const res = await raw(port, {
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      chunks: [body],
    });
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'request body too large: limit is 64 bytes (maxBodyBytes)' },
    });
    expect(engine.payloads).toEqual([]);
  });

  it('stops reading a chunked body once it passes the limit', async () => {
    const { port, engine } = await start({ maxBodyBytes: 1024 });
    const chunk = Buffer.alloc(600, 0x20);
    const res = await raw(port, { headers: { 'content-type': 'application/json' }, chunks: [chunk, chunk, chunk] });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text).error.message).toBe('request body too large: limit is 1024 bytes (maxBodyBytes)');
    expect(engine.payloads).toEqual([]);
  });

  it('survives a large oversize upload from fetch', async () => {
    const { url } = await start({ maxBodyBytes: 1024 });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
  });

  it('accepts a body of exactly the limit', async () => {
    const body = JSON.stringify(chainId);
    const { url } = await start({ maxBodyBytes: Buffer.byteLength(body) });
    expect((await postJson(url, body)).status).toBe(200);
  });

  it('turns an engine rejection into 500 / -32603 without leaking the error', async () => {
    const { url, onError } = await start();
    const res = await postJson(url, { jsonrpc: '2.0', id: 1, method: 'explode' });
    expect(res.status).toBe(500);
    expect(res.text).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}');
    expect(onError).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringMatching(/engine exploded/) }),
    );
  });

  it('keeps serving when onError itself throws', async () => {
    const engine = fakeEngine();
    server = await serve(
      createHttpHandler(
        { engine },
        {
          onError: () => {
            throw new Error('bad logger');
          },
        },
      ),
    );
    const res = await postJson(server.url, { jsonrpc: '2.0', id: 1, method: 'explode' });
    expect(res.status).toBe(500);
    expect((await postJson(server.url, chainId)).status).toBe(200);
  });

  it('answers GET and other methods on the RPC path with 405', async () => {
    const { url, port } = await start();
    const res = await fetch(url);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'method not allowed: use POST' },
    });
    expect((await raw(port, { method: 'PUT' })).status).toBe(405);
  });

  it('serves a custom path, with or without a trailing slash', async () => {
    const { url } = await start({ path: '/rpc/' });
    expect((await postJson(`${url}/rpc`, chainId)).status).toBe(200);
    expect((await postJson(`${url}/rpc/`, chainId)).status).toBe(200);
    expect((await postJson(`${url}/rpc?x=1`, chainId)).status).toBe(200);
    const root = await postJson(url, chainId);
    expect(root.status).toBe(404);
    expect(JSON.parse(root.text)).toEqual({ message: 'Not found' });
  });
});

describe('CORS', () => {
  it('allows any origin by default and answers preflights with 204', async () => {
    const { url } = await start();
    const pre = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://dapp.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-custom',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    expect(pre.headers.get('access-control-allow-headers')).toBe('content-type, x-custom');
    expect(pre.headers.get('access-control-max-age')).toBe('600');
    expect(pre.headers.get('content-length')).toBeNull();
    expect(await pre.text()).toBe('');

    const res = await postJson(url, chainId, { origin: 'http://dapp.test' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('does not echo malformed requested header lists', async () => {
    const { url } = await start();
    const pre = await fetch(url, { method: 'OPTIONS', headers: { 'access-control-request-headers': 'a b;c' } });
    expect(pre.headers.get('access-control-allow-headers')).toBe('Content-Type');
  });

  it('sends no CORS headers when disabled', async () => {
    const { url } = await start({ cors: false });
    const res = await postJson(url, chainId, { origin: 'http://dapp.test' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://dapp.test' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('echoes only listed origins, with Vary: Origin', async () => {
    const { url } = await start({ cors: { origin: ['http://a.test', 'http://b.test'] } });
    const allowed = await postJson(url, chainId, { origin: 'http://b.test' });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://b.test');
    expect(allowed.headers.get('vary')).toBe('Origin');
    const other = await postJson(url, chainId, { origin: 'http://evil.test' });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toBe('Origin');
    const pre = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://a.test' } });
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://a.test');
    const preOther = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://evil.test' } });
    expect(preOther.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('treats "*" in the list as any origin', async () => {
    const { url } = await start({ cors: { origin: '*' } });
    expect((await postJson(url, chainId)).headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('REST routes', () => {
  it('routes GET under the explorer prefix with params and query', async () => {
    const { url, routes } = await start();
    const res = await fetch(`${url}/api/v2/blocks/12?limit=5&x=%20y`, { headers: { origin: 'http://dapp.test' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ height: 12, limit: '5' });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-route')).toBe('block');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const req = routes.requests[0];
    expect(req?.method).toBe('GET');
    expect(req?.path).toBe('/api/v2/blocks/12');
    expect(req?.params).toEqual({ n: '12' });
    expect(req?.query.get('x')).toBe(' y');
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const { port } = await start();
    const res = await raw(port, { method: 'HEAD', path: '/api/v2/blocks/3' });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String('{"height":3,"limit":null}'.length));
    expect(res.text).toBe('');
  });

  it('parses a JSON POST body', async () => {
    const { url } = await start();
    const res = await postJson(`${url}/api/v2/echo`, { a: [1, 2] });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.text)).toEqual({ got: { a: [1, 2] } });
  });

  it('answers a malformed JSON POST body with 400', async () => {
    const { url } = await start();
    const res = await postJson(`${url}/api/v2/echo`, '{nope');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ message: 'Invalid JSON body' });
  });

  it('passes non-JSON POST bodies as text and empty ones as undefined', async () => {
    const { port, routes } = await start();
    await raw(port, { path: '/api/v2/echo', headers: { 'content-type': 'text/plain' }, chunks: ['hi'] });
    await raw(port, { path: '/api/v2/echo' });
    expect(routes.requests.map((r) => r.body)).toEqual(['hi', undefined]);
  });

  it('sends string bodies raw when the handler declares a non-JSON type', async () => {
    const { url } = await start();
    const res = await fetch(`${url}/api/v2/csv`);
    expect(res.headers.get('content-type')).toBe('text/csv');
    expect(await res.text()).toBe('a,b\n1,2\n');
  });

  it('answers an unknown path under the prefix with 404', async () => {
    const { url } = await start();
    const res = await fetch(`${url}/api/v2/nothing/here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found' });
  });

  it('answers a throwing handler with a bare 500 and reports the error', async () => {
    const { url, onError } = await start();
    const res = await fetch(`${url}/api/v2/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).toBe('{"message":"Internal server error"}');
    expect(onError).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringMatching(/route exploded/) }));
  });

  it('refuses other methods under the prefix with 405', async () => {
    const { port } = await start();
    const res = await raw(port, { method: 'DELETE', path: '/api/v2/blocks/1' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('serves plugin routes outside the prefix that the registry owns', async () => {
    const { url } = await start();
    expect(await (await fetch(`${url}/plugin/hello`)).json()).toEqual({ hello: 'world' });
  });

  it('applies the size limit to REST bodies too', async () => {
    const { url } = await start({ maxBodyBytes: 16 });
    const res = await postJson(`${url}/api/v2/echo`, { long: 'x'.repeat(100) });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toEqual({ message: 'request body too large: limit is 16 bytes (maxBodyBytes)' });
  });

  it('honours a custom explorer prefix', async () => {
    const { url } = await start({ explorerPrefix: '/explorer' });
    expect((await fetch(`${url}/explorer/anything`)).status).toBe(404);
    // The default prefix is no longer special: nothing owns it.
    const res = await fetch(`${url}/api/v2/blocks/1`);
    expect(res.status).toBe(404);
  });

  it('answers every non-RPC path with 404 when there are no routes', async () => {
    const { url } = await start({}, false);
    const res = await fetch(`${url}/api/v2/blocks/1`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found' });
  });
});

describe('as connect/express-style middleware', () => {
  it('calls next() for paths it does not own and serves the rest', async () => {
    const engine = fakeEngine();
    const handler = createHttpHandler({ engine, routes: fakeRoutes() }, { path: '/rpc' });
    const nextCalls: string[] = [];
    server = await serve((req, res) =>
      handler(req, res, () => {
        nextCalls.push(req.url ?? '');
        res.end('next');
      }),
    );
    expect(await (await fetch(`${server.url}/health`)).text()).toBe('next');
    expect(await (await fetch(`${server.url}/`)).text()).toBe('next');
    expect((await postJson(`${server.url}/rpc`, chainId)).status).toBe(200);
    expect((await fetch(`${server.url}/api/v2/missing`)).status).toBe(404);
    expect(nextCalls).toEqual(['/health', '/']);
  });
});

describe('options', () => {
  it('rejects invalid options at construction', () => {
    const target = { engine: fakeEngine() };
    expect(() => createHttpHandler(target, { maxBodyBytes: 0 })).toThrow(/maxBodyBytes/);
    expect(() => createHttpHandler(target, { maxBodyBytes: 1.5 })).toThrow(/maxBodyBytes/);
    expect(() => createHttpHandler(target, { path: 'rpc' })).toThrow(/path/);
    expect(() => createHttpHandler(target, { explorerPrefix: 'api' })).toThrow(/explorerPrefix/);
  });
});

describe('afterReply', () => {
  it('runs once after each answer has gone to the socket: JSON-RPC, REST, 404', async () => {
    let calls = 0;
    const { url } = await start({
      afterReply: () => {
        calls++;
      },
    });
    const rpc = await postJson(url, chainId);
    expect(rpc.status).toBe(200);
    expect(calls).toBe(1);
    const rest = await fetch(`${url}/api/v2/blocks/7`);
    expect(rest.status).toBe(200);
    expect(calls).toBe(2);
    const missing = await fetch(`${url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(calls).toBe(3);
  });

  it('is given the time the answer took, from the request reaching the handler', async () => {
    const handled: number[] = [];
    const { url } = await start({
      afterReply: (ms) => {
        handled.push(ms);
      },
    });
    const t0 = performance.now();
    await postJson(url, chainId);
    const roundTrip = performance.now() - t0;
    expect(handled).toHaveLength(1);
    expect(handled[0]).toBeGreaterThanOrEqual(0);
    // Measured inside the round trip: never longer than the client saw it.
    expect(handled[0]).toBeLessThanOrEqual(roundTrip);
  });

  it('a throwing hook goes to onError; the answer is already out', async () => {
    const { url, onError } = await start({
      afterReply: () => {
        throw new Error('hook broke');
      },
    });
    const res = await postJson(url, chainId);
    expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'hook broke' }));
  });
});
