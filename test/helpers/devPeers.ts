/**
 * The two dev chains whose parameter shapes Ashlar's dev methods follow, as peers for
 * differential tests: Anvil 1.7.1 (the @foundry-rs/anvil binary, over HTTP on a free loopback
 * port) and Hardhat 2.29's network (EDR, in process). Both start with chain id 31337 and the
 * `test … junk` dev accounts; calls answer `{ result }` or `{ error }` and never throw.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { hardhatProvider } from './hardhatPeer.js';

export type PeerAnswer =
  | { result: unknown; error?: undefined }
  | { result?: undefined; error: { code: number; message: string } };

export interface Peer {
  name: string;
  /** Its JSON-RPC URL, when it serves one. */
  url?: string;
  call(method: string, params?: unknown[]): Promise<PeerAnswer>;
  close(): Promise<void>;
}

const ANVIL = fileURLToPath(new URL('../../node_modules/.bin/anvil', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** JSON-RPC over HTTP, one request per call. */
export function httpPeer(name: string, url: string, close: () => Promise<void>): Peer {
  let id = 0;
  return {
    name,
    url,
    close,
    async call(method, params = []) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      });
      const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
      return body.error ? { error: body.error } : { result: body.result };
    },
  };
}

/** Anvil on a free port (its own defaults: automine, chain 31337, the same 10 dev accounts). */
export async function startAnvil(): Promise<Peer> {
  const port = await freePort();
  const child: ChildProcess = spawn(ANVIL, ['--port', String(port), '--chain-id', '31337', '--silent'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const peer = httpPeer('anvil', `http://127.0.0.1:${port}`, async () => {
    child.kill();
    await exited;
  });
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode}: ${stderr.trim()}`);
    try {
      await peer.call('eth_chainId');
      return peer;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await peer.close();
  throw new Error(`anvil did not answer on port ${port} within 10 s: ${stderr.trim()}`);
}

/** Hardhat's network in process (helpers/hardhatPeer.ts), with its defaults for the `hardhat` network. */
export async function startHardhat(): Promise<Peer> {
  const provider = await hardhatProvider();
  return {
    name: 'hardhat',
    close: async () => undefined,
    async call(method, params = []) {
      try {
        return { result: await provider.request({ method, params }) };
      } catch (e) {
        const err = e as { code?: number; message?: string };
        return { error: { code: err.code ?? 0, message: err.message ?? String(e) } };
      }
    },
  };
}
