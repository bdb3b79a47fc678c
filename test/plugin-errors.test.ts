/**
 * The plugin API's error seams (issue #22): a request after `kernel.close()` gets the documented
 * ASHLAR_ERR_KERNEL_CLOSED everywhere (kernel.request, the EIP-1193 provider, HTTP, WebSocket),
 * and a plugin answers with its own JSON-RPC code, `data` and domain code.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AshlarError,
  createKernel,
  createProvider,
  definePlugin,
  defineRpcMethod,
  ErrorCodes,
  RpcRequestError,
  token,
  toRpcError,
} from '@ashlar/core';
import { ethPlugin } from '@ashlar/rpc';
import { createHttpHandler } from '@ashlar/transport-http';
import { attachWebSocket } from '@ashlar/transport-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';

/** What every caller must see after close (docs/errors.md's row for ASHLAR_ERR_KERNEL_CLOSED). */
const CLOSED = { code: -32603, message: 'the chain is closed' };

async function rejection(p: Promise<unknown>): Promise<RpcRequestError> {
  try {
    await p;
  } catch (e) {
    return e as RpcRequestError;
  }
  throw new Error('expected a rejection');
}

describe('requests after kernel.close()', () => {
  it('kernel.request and the provider reject with ASHLAR_ERR_KERNEL_CLOSED', async () => {
    const kernel = await createKernel({ plugins: [ethPlugin] });
    const provider = createProvider(kernel);
    await kernel.close();
    for (const p of [kernel.request({ method: 'eth_blockNumber' }), provider.request({ method: 'eth_chainId' })]) {
      const e = await rejection(p);
      expect(e).toBeInstanceOf(RpcRequestError);
      expect({ code: e.code, message: e.message, ashlarCode: e.ashlarCode }).toEqual({
        ...CLOSED,
        ashlarCode: ErrorCodes.CLOSED,
      });
    }
    // A service read after close says so too (close clears the kernel's container).
    expect(() => kernel.chain).toThrow(expect.objectContaining({ code: 'ASHLAR_ERR_KERNEL_CLOSED' }));
    // Even an unknown method: the kernel is closed before anything else is looked at.
    expect((await rejection(kernel.request({ method: 'nope_nope' }))).ashlarCode).toBe('ASHLAR_ERR_KERNEL_CLOSED');
  });

  it('HTTP and WebSocket answer with ASHLAR_ERR_KERNEL_CLOSED, singly and in a batch', async () => {
    const kernel = await createKernel({ plugins: [ethPlugin] });
    const server = createServer(createHttpHandler({ engine: kernel, routes: kernel.routes }));
    const ws = attachWebSocket({ engine: kernel }, server, { logger: { warn() {}, error() {} } });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const socket = new WebSocket(`ws://127.0.0.1:${port}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const socketClosed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    try {
      await kernel.close();
      const post = async (body: unknown) =>
        (
          await fetch(`http://127.0.0.1:${port}/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).json();
      expect(await post({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' })).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: CLOSED,
      });
      expect(
        await post([
          { jsonrpc: '2.0', id: 2, method: 'eth_chainId' },
          { jsonrpc: '2.0', id: 3, method: 'eth_gasPrice' },
        ]),
      ).toEqual([
        { jsonrpc: '2.0', id: 2, error: CLOSED },
        { jsonrpc: '2.0', id: 3, error: CLOSED },
      ]);
      // The kernel's close closed the WebSocket connection ("going away"); a new one is refused
      // with the same error. (A request that reaches a connection before it closes gets it as
      // its answer: test/transport-close-order.test.ts.)
      expect(await socketClosed).toBe(1001);
      const refused = await new Promise<unknown>((resolve, reject) => {
        const late = new WebSocket(`ws://127.0.0.1:${port}`);
        late.once('open', () => reject(new Error('upgraded after close')));
        late.once('error', () => {});
        late.once('unexpected-response', (_req, res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += String(c);
          });
          res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
        });
      });
      expect(refused).toEqual({ status: 503, body: { jsonrpc: '2.0', id: null, error: CLOSED } });
    } finally {
      socket.terminate();
      await ws.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
});

/** A plugin with its own error codes, as docs/plugins.md shows it. */
const NOTE_NOT_FOUND = -32050;
const acmeErrors = definePlugin({
  name: 'acme-errors',
  register: (ctx) =>
    ctx.addMethods(
      defineRpcMethod({
        name: 'acme_note',
        params: [],
        handler: () => {
          throw new RpcRequestError(NOTE_NOT_FOUND, 'note not found', { id: 42 }, 'ACME_ERR_NOTE_NOT_FOUND');
        },
      }),
      defineRpcMethod({
        name: 'acme_wallet',
        params: [],
        handler: () => {
          // An error of another library that carries an EIP-1193 code: it passes through too.
          throw Object.assign(new Error('user rejected the request'), { code: 4001 });
        },
      }),
      defineRpcMethod({
        name: 'acme_reserved',
        params: [],
        handler: () => {
          // -32500 is inside JSON-RPC's reserved block and not one of its codes: a bug.
          throw Object.assign(new Error('bad code'), { code: -32500 });
        },
      }),
      defineRpcMethod({
        name: 'acme_service',
        params: [],
        // A service of a plugin this kernel does not mount.
        handler: (c) => c.services.resolve(token<{ n: number }>('acme:missing')).n,
      }),
      defineRpcMethod({
        name: 'acme_limit',
        params: [],
        handler: () => {
          throw new AshlarError(ErrorCodes.LIMIT_EXCEEDED, 'too many notes', { data: { max: 10 } });
        },
      }),
    ),
});

describe('plugin error codes', () => {
  it('toRpcError passes through an allowed numeric code with its data, and refuses reserved ones', () => {
    expect(toRpcError(new RpcRequestError(-32099, 'custom', { a: 1 }))).toEqual({
      code: -32099,
      message: 'custom',
      data: { a: 1 },
    });
    expect(toRpcError(new RpcRequestError(3, 'execution reverted', '0x'))).toEqual({
      code: 3,
      message: 'execution reverted',
      data: '0x',
    });
    expect(toRpcError(Object.assign(new Error('x'), { code: -32602 })).code).toBe(-32602);
    expect(toRpcError(Object.assign(new Error('x'), { code: -32100 })).code).toBe(-32603);
    expect(toRpcError(Object.assign(new Error('x'), { code: 1.5 })).code).toBe(-32603);
    // Node's system errors have string codes: still an internal error.
    expect(toRpcError(Object.assign(new Error('gone'), { code: 'ENOENT' }))).toEqual({ code: -32603, message: 'gone' });
  });

  it('on the wire: the plugin code and data; in-process: the same, plus the domain code', async () => {
    const kernel = await createKernel({ plugins: [acmeErrors] });
    try {
      const wire = await kernel.handle([
        { jsonrpc: '2.0', id: 1, method: 'acme_note' },
        { jsonrpc: '2.0', id: 2, method: 'acme_wallet' },
        { jsonrpc: '2.0', id: 3, method: 'acme_reserved' },
        { jsonrpc: '2.0', id: 4, method: 'acme_limit' },
      ]);
      expect(wire).toEqual([
        { jsonrpc: '2.0', id: 1, error: { code: NOTE_NOT_FOUND, message: 'note not found', data: { id: 42 } } },
        { jsonrpc: '2.0', id: 2, error: { code: 4001, message: 'user rejected the request' } },
        { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'bad code' } },
        { jsonrpc: '2.0', id: 4, error: { code: -32005, message: 'too many notes', data: { max: 10 } } },
      ]);
      const note = await rejection(kernel.request({ method: 'acme_note' }));
      expect([note.code, note.data, note.ashlarCode]).toEqual([NOTE_NOT_FOUND, { id: 42 }, 'ACME_ERR_NOTE_NOT_FOUND']);
      const limit = await rejection(kernel.request({ method: 'acme_limit' }));
      expect([limit.code, limit.data, limit.ashlarCode]).toEqual([
        -32005,
        { max: 10 },
        'ASHLAR_ERR_RPC_LIMIT_EXCEEDED',
      ]);
      const reserved = await rejection(kernel.request({ method: 'acme_reserved' }));
      expect([reserved.code, reserved.ashlarCode]).toEqual([-32603, 'ASHLAR_ERR_INTERNAL']);
      const service = await rejection(kernel.request({ method: 'acme_service' }));
      expect([service.code, service.ashlarCode, service.message]).toEqual([
        -32603,
        'ASHLAR_ERR_INTERNAL',
        'service "acme:missing" is not registered in this kernel: mount the plugin that provides it, and list that plugin in your plugin\'s dependencies',
      ]);
      const missing = await rejection(kernel.request({ method: 'acme_missing' }));
      expect([missing.code, missing.ashlarCode]).toEqual([-32601, 'ASHLAR_ERR_RPC_METHOD_NOT_FOUND']);
    } finally {
      await kernel.close();
    }
  });
});
