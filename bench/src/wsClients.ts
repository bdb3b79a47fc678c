// Worker thread of the WebSocket bench: many clients, each subscribed to `newHeads` and to the
// token's `logs`, recording when each notification arrives and for which block. Runs on its
// own thread so that parsing notifications does not eat into the node's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

export interface ClientsConfig {
  url: string;
  clients: number;
  token: string;
  /** Notifications to wait for before reporting (clients × blocks × 2). */
  expected: number;
}

export interface ClientsReport {
  /** Arrival time (performance.timeOrigin + now, ms) of each notification. */
  times: Float64Array;
  /** Block number each notification was about. */
  blocks: Int32Array;
}

const config = workerData as ClientsConfig;
const port = parentPort;
if (!port) throw new Error('wsClients.ts runs as a worker thread');

const times = new Float64Array(config.expected);
const blocks = new Int32Array(config.expected);
let received = 0;
const sockets: WebSocket[] = [];

const NOTIFICATION = Buffer.from('"method":"eth_subscription"');
const HEAD_NUMBER = Buffer.from('"number":"0x');
const LOG_BLOCK = Buffer.from('"blockNumber":"0x');

/**
 * The block number of a newHeads or logs notification, read from the raw bytes. The clients
 * share this machine's cores with the node, so they do as little as a client can: a full
 * JSON.parse here would measure the clients, not the node.
 */
function blockOf(buf: Buffer): number {
  let at = buf.indexOf(HEAD_NUMBER);
  at = at === -1 ? buf.indexOf(LOG_BLOCK) + LOG_BLOCK.length : at + HEAD_NUMBER.length;
  return Number.parseInt(buf.toString('latin1', at, buf.indexOf(34, at)), 16);
}

function onMessage(data: WebSocket.RawData): void {
  const now = performance.timeOrigin + performance.now();
  const buf = data as Buffer;
  if (received >= config.expected || buf.indexOf(NOTIFICATION) === -1) return;
  times[received] = now;
  blocks[received] = blockOf(buf);
  if (++received === config.expected) {
    for (const s of sockets) s.close();
    const report: ClientsReport = { times, blocks };
    port?.postMessage({ type: 'done', report }, [times.buffer, blocks.buffer]);
  }
}

async function open(): Promise<void> {
  const ws = new WebSocket(config.url);
  sockets.push(ws);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let answers = 0;
  const subscribed = new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      if (answers < 2) {
        answers++;
        if (answers === 2) resolve();
        return;
      }
      onMessage(data);
    });
  });
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
  ws.send(
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', { address: config.token }] }),
  );
  await subscribed;
}

await Promise.all(Array.from({ length: config.clients }, open));
port.postMessage({ type: 'ready' });
