/**
 * Ashlar inside an express 5 app, next to the app's own routes. The middleware serves JSON-RPC
 * at `/` and the REST routes under `/api/v2`, and passes every other path on with next(). It
 * also works behind `express.json()` (it then uses the parsed req.body), though the parser
 * answers malformed JSON itself instead of with a JSON-RPC parse error.
 *
 * Run: node --conditions=@ashlar/source --import tsx examples/express.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { expressMiddleware } from '@ashlar/transport-http';
import { createNode } from 'ashlar';
import express from 'express';

export async function start(port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const kernel = await createNode();
  const app = express();
  app.get('/health', (_req, res) => {
    res.type('text/plain').send('ok');
  });
  app.use(expressMiddleware({ engine: kernel, routes: kernel.routes }));

  const server = createServer(app);
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
  console.log(`Ashlar JSON-RPC on ${url} (express; GET ${url}/health)`);
}
