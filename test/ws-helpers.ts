/**
 * Shared by the WebSocket, subscription and filter suites: the two ways a node is served
 * (the `ashlar` server, and a node mounted in an express app), contract calls made in-process,
 * and probes into the kernel's subscription and filter registries.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kernel } from '@ashlar/core';
import { FiltersToken, SubscriptionsToken } from '@ashlar/rpc';
import { expressMiddleware } from '@ashlar/transport-http';
import { attachWebSocket, type WebSocketOptions } from '@ashlar/transport-ws';
import { createNode, type NodeOptions } from 'ashlar';
import express from 'express';
import { encodeDeployData, encodeFunctionData, type Hex, parseAbi } from 'viem';
import { vi } from 'vitest';
import { DEV_ACCOUNTS, loadArtifact } from './helpers/contracts.js';
import { startNode } from './helpers/node.js';

export interface ServedNode {
  url: string;
  wsUrl: string;
  kernel: Kernel;
  close(): Promise<void>;
}

/** The node as an express 5 app serves it: the middleware for HTTP, attachWebSocket on the app's server. */
export async function startExpressNode(options: NodeOptions = {}, ws: WebSocketOptions = {}): Promise<ServedNode> {
  const kernel = await createNode(options);
  const app = express();
  app.get('/health', (_req, res) => {
    res.type('text/plain').send('ok');
  });
  app.use(expressMiddleware({ engine: kernel, routes: kernel.routes }));
  const server = createServer(app);
  const endpoint = attachWebSocket({ engine: kernel }, server, { logger: kernel.logger, ...ws });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    kernel,
    async close() {
      await endpoint.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await kernel.close();
    },
  };
}

/** Both ways of serving a node, for describe.each. */
export const SERVED_NODES: [string, () => Promise<ServedNode>][] = [
  ['the ashlar server', () => startNode()],
  ['a node mounted on express', () => startExpressNode()],
];

export const counterArtifact = loadArtifact('Counter');
/** Counter's event as a typed ABI, so viem can infer the decoded arguments. */
export const incrementedAbi = parseAbi(['event Incremented(address indexed by, uint256 newValue)']);
export const tokenArtifact = loadArtifact('Token');
const FROM = DEV_ACCOUNTS[0].address;

/** A node-signed transaction (automine: mined before this resolves); returns its hash. */
export function sendTx(kernel: Kernel, tx: { to?: string; data?: Hex; value?: Hex }): Promise<Hex> {
  return kernel.request<Hex>({ method: 'eth_sendTransaction', params: [{ from: FROM, ...tx }] });
}

async function deployed(kernel: Kernel, hash: Hex): Promise<Hex> {
  const r = await kernel.request<{ contractAddress: Hex }>({ method: 'eth_getTransactionReceipt', params: [hash] });
  return r.contractAddress;
}

export async function deployCounter(kernel: Kernel): Promise<Hex> {
  return deployed(kernel, await sendTx(kernel, { data: counterArtifact.bytecode }));
}

export async function deployToken(kernel: Kernel, supply = 10n ** 24n): Promise<Hex> {
  const data = encodeDeployData({
    abi: tokenArtifact.abi,
    bytecode: tokenArtifact.bytecode,
    args: ['Ashlar Token', 'ASH', supply],
  });
  return deployed(kernel, await sendTx(kernel, { data }));
}

/** Counter.increment(): one block, one Incremented event. */
export function increment(kernel: Kernel, counter: Hex): Promise<Hex> {
  return sendTx(kernel, {
    to: counter,
    data: encodeFunctionData({ abi: counterArtifact.abi, functionName: 'increment' }),
  });
}

/** Token.transfer(to, value): one block, one Transfer event. */
export function transfer(kernel: Kernel, token: Hex, to: Hex, value: bigint): Promise<Hex> {
  return sendTx(kernel, {
    to: token,
    data: encodeFunctionData({ abi: tokenArtifact.abi, functionName: 'transfer', args: [to, value] }),
  });
}

export const subscriptionCount = (kernel: Kernel): number => kernel.resolve(SubscriptionsToken).size;
export const filterCount = (kernel: Kernel): number => kernel.resolve(FiltersToken).size;

/**
 * Clients subscribe asynchronously after `watch…()` / `on()` returns: wait until the node has
 * the subscriptions (or filters), so no event of the run can happen before they exist.
 */
export async function untilInstalled(probe: () => number, atLeast: number): Promise<void> {
  await vi.waitFor(
    () => {
      if (probe() < atLeast) throw new Error(`waiting for ${atLeast}, have ${probe()}`);
    },
    { timeout: 10_000, interval: 5 },
  );
}

/** Waits until the probe reads exactly `n` (clean-up after a client disconnects is asynchronous). */
export async function untilExactly(probe: () => number, n: number): Promise<void> {
  await vi.waitFor(
    () => {
      if (probe() !== n) throw new Error(`waiting for ${n}, have ${probe()}`);
    },
    { timeout: 10_000, interval: 5 },
  );
}

/** Waits (no time limit of its own beyond vitest's) until `list` holds `n` items. */
export async function untilLength(list: readonly unknown[], n: number): Promise<void> {
  await vi.waitFor(
    () => {
      if (list.length < n) throw new Error(`waiting for ${n} items, have ${list.length}`);
    },
    { timeout: 15_000, interval: 5 },
  );
}

/**
 * Like untilLength, for polling clients: ethers' JsonRpcProvider polls a filter only when it
 * sees a new block, and a block that lands while it restarts its block poller is never "new"
 * to it. A chain that keeps making blocks is what such clients expect, so make empty ones.
 */
export async function untilLengthWhileMining(kernel: Kernel, list: readonly unknown[], n: number): Promise<void> {
  await vi.waitFor(
    async () => {
      if (list.length >= n) return;
      await kernel.request({ method: 'evm_mine' });
      throw new Error(`waiting for ${n} items, have ${list.length}`);
    },
    { timeout: 15_000, interval: 40 },
  );
}

/** `n` increments in a row, one block and one event each; their transaction hashes in order. */
export async function incrementRun(kernel: Kernel, counter: Hex, n: number): Promise<Hex[]> {
  const hashes: Hex[] = [];
  for (let i = 0; i < n; i++) hashes.push(await increment(kernel, counter));
  return hashes;
}
