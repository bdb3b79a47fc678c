import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kernel } from '@ashlar/core';
import { createHttpHandler } from '@ashlar/transport-http';

export interface ServerOptions {
  host?: string;
  port?: number;
  cors?: boolean;
}

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Serves a kernel's JSON-RPC (and REST routes) over HTTP on host:port. */
export function startServer(kernel: Kernel, options: ServerOptions = {}): Promise<RunningServer> {
  const handler = createHttpHandler(
    { engine: kernel, routes: kernel.routes },
    { cors: options.cors === false ? false : undefined },
  );
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => handler(req, res));
  server.headersTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8545, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const a = server.address() as AddressInfo;
      const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({
        server,
        url: `http://${host}:${a.port}`,
        close: () =>
          new Promise<void>((res) => {
            server.close(() => res());
            server.closeAllConnections();
          }),
      });
    });
  });
}
