/**
 * Ashlar in a plain Node HTTP server: one request listener serves JSON-RPC at `/` and the REST
 * routes under `/api/v2`.
 *
 * Run: node --conditions=@ashlar/source --import tsx examples/node-http.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createHttpHandler } from '@ashlar/transport-http';
import { createNode } from 'ashlar';

export async function start(port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const kernel = await createNode();
  // The kernel is the JSON-RPC engine itself (it implements handle()).
  const server = createServer(createHttpHandler({ engine: kernel, routes: kernel.routes }));
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
        // Keep-alive sockets would hold close() open until they time out.
        server.closeAllConnections();
      });
      await kernel.close();
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await start(8545);
  console.log(`Ashlar JSON-RPC on ${url}`);
}
