/**
 * Ashlar as a fastify 5 plugin, next to the app's own routes. fastify parses the JSON body
 * itself; the plugin uses it and maps fastify's parser errors to geth-style answers.
 *
 * Run: node --conditions=@ashlar/source --import tsx examples/fastify.ts
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { fastifyPlugin } from '@ashlar/transport-http';
import { createNode } from 'ashlar';
import Fastify from 'fastify';

export async function start(port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const kernel = await createNode();
  const app = Fastify();
  app.get('/health', async (_request, reply) => reply.type('text/plain').send('ok'));
  try {
    await app.register(fastifyPlugin({ engine: kernel, routes: kernel.routes }));
    await app.listen({ port, host: '127.0.0.1' });
  } catch (err) {
    await app.close();
    await kernel.close();
    throw err;
  }
  const { port: bound } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    async close() {
      await app.close();
      await kernel.close();
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await start(8545);
  console.log(`Ashlar JSON-RPC on ${url} (fastify; GET ${url}/health)`);
}
