/**
 * Ashlar inside a koa 3 app, next to the app's own routes: JSON-RPC at `/rpc` over HTTP and
 * WebSocket (one server, one port), the explorer API under `/explorer/api/v2`, and the app's
 * `/health`; the middleware awaits next() for every other path.
 *
 * Close order: the WebSocket endpoint, the HTTP server, then the kernel; nothing is left open.
 *
 * Run: node --conditions=@ashlar/source --import tsx examples/koa.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { koaMiddleware } from '@ashlar/transport-http';
import { attachWebSocket } from '@ashlar/transport-ws';
import { createNode } from 'ashlar';
import Koa from 'koa';
import type { EmbeddedNode } from './embedded.js';

export async function start(port = 0): Promise<EmbeddedNode> {
  const kernel = await createNode();
  const app = new Koa();
  app.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/health') {
      ctx.body = 'ok';
      return;
    }
    await next();
  });
  app.use(
    koaMiddleware({ engine: kernel, routes: kernel.routes }, { path: '/rpc', explorerPrefix: '/explorer/api/v2' }),
  );

  const server = createServer(app.callback());
  const ws = attachWebSocket({ engine: kernel }, server, { path: '/rpc' });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await ws.close();
    await kernel.close();
    throw err;
  }
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    rpcUrl: `http://127.0.0.1:${bound}/rpc`,
    wsUrl: `ws://127.0.0.1:${bound}/rpc`,
    explorerUrl: `http://127.0.0.1:${bound}/explorer/api/v2`,
    async close() {
      await ws.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await kernel.close();
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const node = await start(8545);
  console.log(`koa: JSON-RPC ${node.rpcUrl} and ${node.wsUrl}, explorer ${node.explorerUrl}, GET ${node.url}/health`);
}
