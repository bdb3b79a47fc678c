/**
 * @ashlar/transport-http against a real node: real clients (viem, ethers) over the plain
 * handler, geth-style transport errors, and REST routes registered by a plugin in the kernel's
 * RouteRegistry (the package's own unit tests use fakes).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { definePlugin, type Kernel } from '@ashlar/core';
import { createHttpHandler } from '@ashlar/transport-http';
import { createNode } from 'ashlar';
import { JsonRpcProvider } from 'ethers';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const routesPlugin = definePlugin({
  name: 'test-routes',
  register(ctx) {
    ctx.routes.add('GET', '/api/v2/greeting/:name', (req) => ({
      status: 200,
      body: { hello: req.params.name, lang: req.query.get('lang') },
    }));
    ctx.routes.add('POST', '/api/v2/echo', (req) => ({ status: 200, body: { got: req.body } }));
    ctx.routes.add('GET', '/api/v2/boom', () => {
      throw new Error('route failure');
    });
    ctx.routes.add('GET', '/plugin/ping', () => ({
      status: 200,
      body: 'pong',
      headers: { 'content-type': 'text/plain' },
    }));
  },
});

let kernel: Kernel;
let server: Server;
let url: string;
const errors: unknown[] = [];

beforeAll(async () => {
  kernel = await createNode({ plugins: [routesPlugin] });
  server = createServer(
    createHttpHandler({ engine: kernel, routes: kernel.routes }, { onError: (err) => errors.push(err) }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await kernel.close();
});

async function post(body: string, contentType = 'application/json') {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: res.status, text: await res.text() };
}

describe('JSON-RPC clients over HTTP', () => {
  it('viem reads the chain id and block number', async () => {
    const client = createPublicClient({ transport: http(url) });
    expect(await client.getChainId()).toBe(31337);
    expect(typeof (await client.getBlockNumber())).toBe('bigint');
  });

  it('viem batches requests', async () => {
    const client = createPublicClient({ transport: http(url, { batch: true }) });
    const [chainId, block] = await Promise.all([client.getChainId(), client.getBlockNumber()]);
    expect(chainId).toBe(31337);
    expect(block).toBeGreaterThanOrEqual(0n);
  });

  it('ethers (which batches by default) reads the network', async () => {
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: false });
    try {
      const [network, block] = await Promise.all([provider.getNetwork(), provider.getBlockNumber()]);
      expect(network.chainId).toBe(31337n);
      expect(block).toBeGreaterThanOrEqual(0);
    } finally {
      provider.destroy();
    }
  });
});

describe('geth-style transport answers', () => {
  it('415 for a non-JSON content type', async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', 'text/plain');
    expect(res.status).toBe(415);
    expect(JSON.parse(res.text).error).toEqual({
      code: -32600,
      message: 'invalid content type, only application/json is supported',
    });
  });

  it('HTTP 200 with -32700 for malformed JSON', async () => {
    const res = await post('{"jsonrpc":');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('an empty 200 for a notification', async () => {
    const res = await post('{"jsonrpc":"2.0","method":"eth_chainId","params":[]}');
    expect(res).toEqual({ status: 200, text: '' });
  });

  it('per-entry answers in a mixed batch', async () => {
    const res = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'no_such_method', params: [] },
      ]),
    );
    const body = JSON.parse(res.text) as { id: number; result?: string; error?: { code: number } }[];
    expect(body.find((r) => r.id === 1)?.result).toBe('0x7a69');
    expect(body.find((r) => r.id === 2)?.error?.code).toBe(-32601);
  });
});

describe('REST routes from the kernel registry', () => {
  it('serves a plugin route with params and query', async () => {
    const res = await fetch(`${url}/api/v2/greeting/ada?lang=en`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hello: 'ada', lang: 'en' });
  });

  it('parses JSON POST bodies', async () => {
    const res = await fetch(`${url}/api/v2/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ n: 1 }),
    });
    expect(await res.json()).toEqual({ got: { n: 1 } });
  });

  it('serves routes the registry owns outside the prefix', async () => {
    const res = await fetch(`${url}/plugin/ping`);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('pong');
  });

  it('answers unknown REST paths without a 5xx', async () => {
    const res = await fetch(`${url}/api/v2/definitely/not/a/route`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await res.json()).toBeTypeOf('object');
  });

  it('turns a throwing route into a bare 500 and reports it', async () => {
    const before = errors.length;
    const res = await fetch(`${url}/api/v2/boom`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('{"message":"Internal server error"}');
    expect(errors.length).toBe(before + 1);
  });
});
