// WebSocket fan-out: 100 clients (in a worker thread) each subscribed to `newHeads` and to the
// token's `logs` while ERC-20 transfers are automined, one block each. Reports notifications
// delivered per second, the delay from block commit (the kernel's 'block' event) to arrival
// at the client, and automined tx/s with those subscribers ÷ without them.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Kernel } from '@ashlar/core';
import { createTx } from '@ethereumjs/tx';
import { createNode, startServer } from 'ashlar';
import type { ClientsConfig, ClientsReport } from './wsClients.js';

const CLIENTS = 100;
const TOKEN = JSON.parse(readFileSync(new URL('../../test/contracts/artifacts.json', import.meta.url), 'utf8')).Token
  .bytecode as string;

const now = (): number => performance.timeOrigin + performance.now();
const word = (v: bigint | number): string => BigInt(v).toString(16).padStart(64, '0');
const text = (s: string): string => word(s.length) + Buffer.from(s).toString('hex').padEnd(64, '0');

/** Token(string name, string symbol, uint256 supply), ABI-encoded by hand (short strings only). */
const tokenArgs = (supply: bigint): string => word(0x60) + word(0xa0) + word(supply) + text('Bench') + text('BNC');
/** transfer(address to, uint256 value). */
const transferData = (to: string, value: bigint): `0x${string}` => `0xa9059cbb${word(BigInt(to))}${word(value)}`;

function signer(kernel: Kernel) {
  const account = kernel.chain.accounts[0];
  let nonce = 0;
  return (to: `0x${string}` | undefined, data: `0x${string}`, gasLimit: bigint): string => {
    const tx = createTx(
      {
        type: 2,
        nonce: nonce++,
        ...(to === undefined ? {} : { to }),
        data,
        gasLimit,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 10n ** 9n,
        chainId: 31337n,
      },
      { common: kernel.chain.common },
    ).sign(account.privateKey);
    return `0x${Buffer.from(tx.serialize()).toString('hex')}`;
  };
}

/** A node with a deployed token and `transfers` signed transfers ready to send. */
async function prepare(transfers: number) {
  const kernel = await createNode();
  const sign = signer(kernel);
  const hash = await kernel.request<string>({
    method: 'eth_sendRawTransaction',
    params: [sign(undefined, `0x${TOKEN.slice(2)}${tokenArgs(10n ** 30n)}`, 3_000_000n)],
  });
  const { contractAddress } = await kernel.request<{ contractAddress: `0x${string}` }>({
    method: 'eth_getTransactionReceipt',
    params: [hash],
  });
  const raws = Array.from({ length: transfers }, (_, i) =>
    sign(contractAddress, transferData(`0x${(0x100000 + i).toString(16).padStart(40, '0')}`, 1n), 100_000n),
  );
  return { kernel, token: contractAddress, raws };
}

const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Sends transfers one after another (each automined); returns the wall-clock ms, which
 * includes the node's socket writes. Each one waits for a turn of the event loop first, as a
 * request arriving over the network would: an in-memory chain resolves in microtasks only,
 * and back-to-back calls would starve socket I/O, so no notification could leave until the
 * loop ended.
 */
async function mine(kernel: Kernel, raws: string[]): Promise<number> {
  const t = performance.now();
  for (const raw of raws) {
    await yieldToIo();
    await kernel.request({ method: 'eth_sendRawTransaction', params: [raw] });
  }
  // The last block's notifications leave at the end of the tick, or on the flush timer.
  await new Promise((resolve) => setTimeout(resolve, 0));
  return performance.now() - t;
}

const percentile = (sorted: Float64Array, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Transfers per turn when the two nodes take turns. */
const CHUNK = 50;

export async function wsBench(quick: boolean): Promise<Record<string, number>> {
  const transfers = quick ? 200 : 1000;

  // Two identical nodes in this process, one with subscribers and one without. They mine in
  // turns of CHUNK transfers, so a change in machine load hits both alike.
  const bare = await prepare(transfers);
  const bareServer = await startServer(bare.kernel, { port: 0 });
  const { kernel, token, raws } = await prepare(transfers);
  const server = await startServer(kernel, { port: 0 });
  const firstBlock = Number(kernel.chain.head.number) + 1;
  const committedAt = new Float64Array(transfers);
  kernel.events.on('block', (sb) => {
    const i = Number(sb.number) - firstBlock;
    if (i >= 0 && i < transfers) committedAt[i] = now();
  });

  const expected = CLIENTS * transfers * 2;
  const config: ClientsConfig = { url: server.wsUrl, clients: CLIENTS, token, expected };
  const worker = new Worker(
    // Worker threads do not inherit tsx's loader on Node 20: load the client script through it.
    `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => tsx.tsImport(${JSON.stringify(
      new URL('./wsClients.ts', import.meta.url).href,
    )}, ${JSON.stringify(import.meta.url)}));`,
    { eval: true, workerData: config },
  );
  const done = new Promise<ClientsReport>((resolve, reject) => {
    worker.on('message', (m: { type: string; report?: ClientsReport }) => {
      if (m.type === 'done' && m.report) resolve(m.report);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`bench clients exited (${code}) before receiving everything`)));
  });
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m: { type: string }) => m.type === 'ready' && resolve());
    worker.once('error', reject);
  });

  let msWithout = 0;
  let msWith = 0;
  const start = now();
  for (let i = 0; i < transfers; i += CHUNK) {
    msWithout += await mine(bare.kernel, bare.raws.slice(i, i + CHUNK));
    msWith += await mine(kernel, raws.slice(i, i + CHUNK));
  }
  const report = await done;
  const last = report.times.reduce((a, b) => Math.max(a, b), 0);
  const delays = new Float64Array(report.times.length);
  for (let i = 0; i < delays.length; i++) delays[i] = report.times[i] - committedAt[report.blocks[i] - firstBlock];
  delays.sort();

  await worker.terminate();
  await server.close();
  await kernel.close();
  await bareServer.close();
  await bare.kernel.close();
  const withoutSubscribers = (transfers / msWithout) * 1000;
  const withSubscribers = (transfers / msWith) * 1000;
  return {
    'ws clients': CLIENTS,
    'transfers mined': transfers,
    'notifications delivered': expected,
    'notifications/s': Math.round(expected / ((last - start) / 1000)),
    'commit → notification p50 ms': Number(percentile(delays, 50).toFixed(2)),
    'commit → notification p99 ms': Number(percentile(delays, 99).toFixed(2)),
    'automined tx/s without subscribers': Math.round(withoutSubscribers),
    'automined tx/s with subscribers': Math.round(withSubscribers),
    'tx/s with ÷ without subscribers': Number((withSubscribers / withoutSubscribers).toFixed(3)),
  };
}
