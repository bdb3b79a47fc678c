/**
 * Ashlar as a fastify 5 plugin, next to the app's own routes: JSON-RPC at `/rpc` over HTTP and
 * WebSocket (attached to fastify's own server), the explorer API under `/explorer/api/v2`, and
 * the app's `/health`. fastify parses the JSON body itself; the plugin uses it and maps fastify's
 * parser errors to geth-style answers.
 *
 * Close order: the WebSocket endpoint, fastify (its server), then the kernel; nothing is left open.
 *
 * Run: node --conditions=@ashlar/source --import tsx examples/fastify.ts
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { fastifyPlugin } from '@ashlar/transport-http';
import { attachWebSocket } from '@ashlar/transport-ws';
import { createNode } from 'ashlar';
import Fastify from 'fastify';
import type { EmbeddedNode } from './embedded.js';

export async function start(port = 0): Promise<EmbeddedNode> {
  const kernel = await createNode();
  const app = Fastify();
  app.get('/health', async (_request, reply) => reply.type('text/plain').send('ok'));
  // fastify's server exists before listen: upgrades to /rpc go to the WebSocket endpoint.
  const ws = attachWebSocket({ engine: kernel }, app.server, { path: '/rpc' });
  try {
    await app.register(
      fastifyPlugin({ engine: kernel, routes: kernel.routes }, { path: '/rpc', explorerPrefix: '/explorer/api/v2' }),
    );
    await app.listen({ port, host: '127.0.0.1' });
  } catch (err) {
    await ws.close();
    await app.close();
    await kernel.close();
    throw err;
  }
  const { port: bound } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    rpcUrl: `http://127.0.0.1:${bound}/rpc`,
    wsUrl: `ws://127.0.0.1:${bound}/rpc`,
    explorerUrl: `http://127.0.0.1:${bound}/explorer/api/v2`,
    async close() {
      await ws.close();
      await app.close();
      await kernel.close();
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const node = await start(8545);
  console.log(
    `fastify: JSON-RPC ${node.rpcUrl} and ${node.wsUrl}, explorer ${node.explorerUrl}, GET ${node.url}/health`,
  );
}
