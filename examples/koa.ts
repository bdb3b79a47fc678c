/**
 * Ashlar inside a koa 3 app, next to the app's own routes: the middleware serves JSON-RPC at
 * `/` and the REST routes under `/api/v2`, and awaits next() for every other path.
 *
 * Run: node --conditions=@ashlar/source --import tsx examples/koa.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { koaMiddleware } from '@ashlar/transport-http';
import { createNode } from 'ashlar';
import Koa from 'koa';

export async function start(port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const kernel = await createNode();
  const app = new Koa();
  app.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/health') {
      ctx.body = 'ok';
      return;
    }
    await next();
  });
  app.use(koaMiddleware({ engine: kernel, routes: kernel.routes }));

  const server = createServer(app.callback());
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await kernel.close();
    throw err;
  }
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await kernel.close();
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await start(8545);
  console.log(`Ashlar JSON-RPC on ${url} (koa; GET ${url}/health)`);
}
