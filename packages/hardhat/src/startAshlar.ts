import { createProvider, type Eip1193Provider, type Kernel } from '@ashlar/core';
import { createNode, type RunningServer, startServer } from 'ashlar';
import { type AshlarHardhatOptions, toNodeOptions } from './options.js';

/** One in-process chain for a Hardhat network connection: its kernel, EIP-1193 provider and optional server. */
export interface AshlarChain {
  kernel: Kernel;
  provider: Eip1193Provider;
  /** The HTTP/WebSocket server when `port` was given. */
  server?: RunningServer;
  close(): Promise<void>;
}

/** What the chain prints (the server's URL); stderr by default, so test reporters' output stays clean. */
export type Announce = (line: string) => void;

const toStderr: Announce = (line) => process.stderr.write(`${line}\n`);

/** Starts an in-process Ashlar chain with every built-in method, and its server when a port is set. */
export async function startAshlar(
  options: AshlarHardhatOptions = {},
  announce: Announce = toStderr,
): Promise<AshlarChain> {
  const kernel = await createNode(toNodeOptions(options));
  let server: RunningServer | undefined;
  if (options.port !== undefined) {
    try {
      server = await startServer(kernel, { port: options.port, ...(options.host ? { host: options.host } : {}) });
    } catch (e) {
      await kernel.close();
      throw e;
    }
    announce(`Ashlar: the tests' chain serves JSON-RPC on ${server.url} and its explorer API on ${server.url}/api/v2`);
  }
  const provider = createProvider(kernel);
  return {
    kernel,
    provider,
    ...(server ? { server } : {}),
    async close() {
      await server?.close();
      await kernel.close();
    },
  };
}
