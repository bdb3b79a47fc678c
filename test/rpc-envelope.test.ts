/**
 * The JSON-RPC 2.0 envelope: batches, notifications, ids, request validation, parameter errors and
 * internal errors — through kernel.handle (what every transport calls) and, for what only a
 * transport can see (unparsable bodies), over HTTP.
 */
import {
  type JsonRpcFailure,
  type JsonRpcResponse,
  type JsonRpcSuccess,
  type Kernel,
  definePlugin,
  defineRpcMethod,
} from '@ashlar/core';
import { createNode } from 'ashlar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestNode, startNode } from './helpers/node.js';

const boomPlugin = definePlugin({
  name: 'boom-plugin',
  register(ctx) {
    ctx.addMethods(
      defineRpcMethod({
        name: 'test_boom',
        params: [],
        handler: () => {
          throw new Error('boom');
        },
      }),
    );
  },
});

let kernel: Kernel;
let address: string;

beforeAll(async () => {
  kernel = await createNode({ plugins: [boomPlugin] });
  address = kernel.chain.accounts[0].address.toString();
});

afterAll(async () => {
  await kernel?.close();
});

const req = (method: string, params: unknown[] = [], id: string | number | null = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

async function single(payload: unknown): Promise<JsonRpcResponse> {
  const r = await kernel.handle(payload);
  if (r === undefined || Array.isArray(r)) throw new Error(`expected one response, got ${JSON.stringify(r)}`);
  return r;
}

async function failure(payload: unknown): Promise<JsonRpcFailure['error'] & { id: unknown }> {
  const r = await single(payload);
  if (!('error' in r)) throw new Error(`expected an error, got ${JSON.stringify(r)}`);
  expect(r.jsonrpc).toBe('2.0');
  expect(r).not.toHaveProperty('result');
  return { ...r.error, id: r.id };
}

describe('batches', () => {
  it('answers every request of a batch, in order, with its id', async () => {
    const out = await kernel.handle([
      req('eth_chainId', [], 1),
      req('net_version', [], 'two'),
      req('eth_blockNumber', [], 3),
      req('no_such_method', [], 4),
      req('web3_sha3', ['0x'], 5),
    ]);
    expect(Array.isArray(out)).toBe(true);
    const list = out as JsonRpcResponse[];
    expect(list.map((r) => r.id)).toEqual([1, 'two', 3, 4, 5]);
    expect((list[0] as JsonRpcSuccess).result).toBe('0x7a69');
    expect((list[1] as JsonRpcSuccess).result).toBe('31337');
    expect((list[2] as JsonRpcSuccess).result).toMatch(/^0x/);
    expect((list[3] as JsonRpcFailure).error.code).toBe(-32601);
    expect((list[4] as JsonRpcSuccess).result).toBe(
      '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
  });

  it('runs a batch sequentially: later requests see earlier transactions', async () => {
    const to = kernel.chain.accounts[1].address.toString();
    const before = await kernel.request<string>({ method: 'eth_getTransactionCount', params: [address, 'latest'] });
    const out = (await kernel.handle([
      req('eth_sendTransaction', [{ from: address, to, value: '0x1' }], 1),
      req('eth_sendTransaction', [{ from: address, to, value: '0x1' }], 2),
      req('eth_getTransactionCount', [address, 'latest'], 3),
    ])) as JsonRpcResponse[];
    expect(out.every((r) => 'result' in r)).toBe(true);
    expect(BigInt((out[2] as JsonRpcSuccess).result as string)).toBe(BigInt(before) + 2n);
  });

  it('answers an empty batch with one -32600 error', async () => {
    const e = await failure([]);
    expect(e.code).toBe(-32600);
    expect(e.id).toBeNull();
  });

  it('rejects a batch over the limit with -32600 naming the limit', async () => {
    const small = await createNode({ rpc: { maxBatchSize: 3 } });
    try {
      const ok = await small.handle([req('eth_chainId', [], 1), req('eth_chainId', [], 2), req('eth_chainId', [], 3)]);
      expect(ok).toHaveLength(3);
      const r = await small.handle([1, 2, 3, 4].map((id) => req('eth_chainId', [], id)));
      expect(Array.isArray(r)).toBe(false);
      const f = r as JsonRpcFailure;
      expect(f.error.code).toBe(-32600);
      expect(f.error.message).toMatch(/\b3\b/);
      expect(f.id).toBeNull();
    } finally {
      await small.close();
    }
  });

  it('answers invalid members of a batch one by one', async () => {
    const out = (await kernel.handle([1, req('eth_chainId', [], 7), { foo: 'bar' }])) as JsonRpcResponse[];
    expect(out).toHaveLength(3);
    expect((out[0] as JsonRpcFailure).error.code).toBe(-32600);
    expect(out[1]).toMatchObject({ id: 7, result: '0x7a69' });
    expect((out[2] as JsonRpcFailure).error.code).toBe(-32600);
  });
});

describe('notifications', () => {
  it('gives no answer to a notification (no id)', async () => {
    expect(await kernel.handle({ jsonrpc: '2.0', method: 'eth_chainId', params: [] })).toBeUndefined();
    // not even when it fails
    expect(await kernel.handle({ jsonrpc: '2.0', method: 'no_such_method', params: [] })).toBeUndefined();
    expect(await kernel.handle({ jsonrpc: '2.0', method: 'eth_getBalance', params: ['0x123'] })).toBeUndefined();
  });

  it('omits notifications from a batch answer', async () => {
    const out = (await kernel.handle([
      { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
      req('net_version', [], 9),
      { jsonrpc: '2.0', method: 'no_such_method' },
    ])) as JsonRpcResponse[];
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ id: 9, result: '31337' });
  });

  it('gives no answer to a batch of notifications only', async () => {
    expect(
      await kernel.handle([
        { jsonrpc: '2.0', method: 'eth_chainId' },
        { jsonrpc: '2.0', method: 'net_version' },
      ]),
    ).toBeUndefined();
  });
});

describe('ids', () => {
  it.each([
    ['number', 42],
    ['zero', 0],
    ['string', 'abc-1'],
    ['empty string', ''],
    ['null', null],
  ])('echoes a %s id', async (_label, id) => {
    const r = await single(req('eth_chainId', [], id));
    expect(r).toEqual({ jsonrpc: '2.0', id, result: '0x7a69' });
  });

  it('echoes the id on errors too', async () => {
    const e = await failure(req('no_such_method', [], 'err-id'));
    expect(e.id).toBe('err-id');
  });
});

describe('invalid requests', () => {
  it('rejects jsonrpc "1.0" with -32600', async () => {
    const e = await failure({ jsonrpc: '1.0', id: 1, method: 'eth_chainId', params: [] });
    expect(e.code).toBe(-32600);
    expect(e.id).toBe(1);
  });

  it('rejects a missing jsonrpc member with -32600', async () => {
    expect((await failure({ id: 1, method: 'eth_chainId' })).code).toBe(-32600);
  });

  it('rejects a missing method with -32600', async () => {
    const e = await failure({ jsonrpc: '2.0', id: 1, params: [] });
    expect(e.code).toBe(-32600);
  });

  it('rejects a non-string method with -32600', async () => {
    expect((await failure({ jsonrpc: '2.0', id: 1, method: 5 })).code).toBe(-32600);
  });

  it('rejects a request that is not an object with -32600', async () => {
    expect((await failure('eth_chainId')).code).toBe(-32600);
    expect((await failure(null)).code).toBe(-32600);
  });

  it('answers an unknown method with -32601 naming it', async () => {
    const e = await failure(req('eth_doesNotExist'));
    expect(e.code).toBe(-32601);
    expect(e.message).toContain('eth_doesNotExist');
  });
});

describe('parameters', () => {
  it('rejects params given as an object with -32602', async () => {
    const e = await failure({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: { address, block: 'latest' } });
    expect(e.code).toBe(-32602);
  });

  it('rejects too many params with -32602', async () => {
    const e = await failure(req('eth_chainId', ['extra']));
    expect(e.code).toBe(-32602);
    const e2 = await failure(req('eth_getBalance', [address, 'latest', 'extra']));
    expect(e2.code).toBe(-32602);
  });

  it('rejects a param of the wrong type with -32602 naming the parameter', async () => {
    const e = await failure(req('eth_getBalance', ['0x123', 'latest']));
    expect(e.code).toBe(-32602);
    expect(e.message).toContain('address');
    const e2 = await failure(req('eth_getBlockByNumber', ['latest', 'yes']));
    expect(e2.code).toBe(-32602);
    expect(e2.message).toMatch(/argument 1/);
  });

  it('rejects a missing required param with -32602', async () => {
    const e = await failure(req('eth_getBalance', []));
    expect(e.code).toBe(-32602);
    expect(e.message).toContain('address');
  });

  it('accepts omitted params for a method without parameters', async () => {
    expect(await single({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).toMatchObject({ result: '0x7a69' });
  });
});

describe('internal errors', () => {
  it('maps a plain Error thrown by a method to -32603 without a stack trace, and keeps answering', async () => {
    const e = await failure(req('test_boom', [], 77));
    expect(e.code).toBe(-32603);
    expect(e.id).toBe(77);
    expect(e.message).toContain('boom');
    expect(e.message).not.toMatch(/\n\s*at |\.ts:\d+|\.js:\d+/);
    expect(JSON.stringify(e.data ?? null)).not.toMatch(/\n\s*at |\.ts:\d+/);
    expect(await single(req('eth_chainId', [], 78))).toMatchObject({ id: 78, result: '0x7a69' });
  });

  it('reports the same through kernel.request', async () => {
    await expect(kernel.request({ method: 'test_boom' })).rejects.toMatchObject({ code: -32603 });
    expect(await kernel.request({ method: 'eth_chainId' })).toBe('0x7a69');
  });
});

describe('over HTTP', () => {
  let node: TestNode;

  beforeAll(async () => {
    node = await startNode();
  });

  afterAll(async () => {
    await node?.close();
  });

  const post = async (body: string): Promise<{ status: number; json: unknown }> => {
    const res = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await res.text();
    return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
  };

  it('answers bad JSON with -32700 and id null', async () => {
    const { json } = await post('{"jsonrpc":"2.0","id":1,"method":');
    expect(json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('answers a batch in order', async () => {
    const { json } = await post(JSON.stringify([req('net_version', [], 'a'), req('eth_chainId', [], 'b')]));
    expect(json).toEqual([
      { jsonrpc: '2.0', id: 'a', result: '31337' },
      { jsonrpc: '2.0', id: 'b', result: '0x7a69' },
    ]);
  });

  it('answers an empty batch with -32600', async () => {
    const { json } = await post('[]');
    expect(json).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('sends no JSON-RPC response for a notification', async () => {
    const { json } = await post(JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId', params: [] }));
    expect(json).toBeUndefined();
  });

  it('answers an unknown method with -32601 naming it', async () => {
    const { json } = await post(JSON.stringify(req('foo_bar', [], 5)));
    expect(json).toMatchObject({ id: 5, error: { code: -32601, message: expect.stringContaining('foo_bar') } });
  });
});
