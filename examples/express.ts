/**
 * Ashlar inside an express 5 app, next to the app's own routes: JSON-RPC at `/rpc` over HTTP and
 * WebSocket (one server, one port), the explorer API under `/explorer/api/v2`, and the app's
 * `/health`. Every other path goes on to the app with next(). The middleware also works behind
 * `express.json()` (it then uses the parsed req.body), though the parser answers malformed JSON
 * itself instead of with a JSON-RPC parse error, and its body limit (100 kB) applies.
 *
 * Close order: the WebSocket endpoint (it closes its connections and subscriptions), the HTTP
 * server, then the kernel; nothing is left open.
 *
 * Run: node --conditions=@ashlar/source --import tsx examples/express.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { expressMiddleware } from '@ashlar/transport-http';
import { attachWebSocket } from '@ashlar/transport-ws';
import { createNode } from 'ashlar';
import express from 'express';
import type { EmbeddedNode } from './embedded.js';

export async function start(port = 0): Promise<EmbeddedNode> {
  const kernel = await createNode();
  const app = express();
  app.get('/health', (_req, res) => {
    res.type('text/plain').send('ok');
  });
  app.use(
    expressMiddleware({ engine: kernel, routes: kernel.routes }, { path: '/rpc', explorerPrefix: '/explorer/api/v2' }),
  );

  const server = createServer(app);
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
        // Keep-alive sockets would hold close() open until they time out.
        server.closeAllConnections();
      });
      await kernel.close();
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const node = await start(8545);
  console.log(
    `express: JSON-RPC ${node.rpcUrl} and ${node.wsUrl}, explorer ${node.explorerUrl}, GET ${node.url}/health`,
  );
}
