// Heap per automined block: self size by object class after N blocks, and the growth between two points.
import { createNode } from 'ashlar';
import { signedTransfers } from '../signedTransfers.js';
import v8 from 'node:v8';

const N = Number(process.env.N ?? 2000);
const opts = JSON.parse(process.env.OPTS ?? '{}');
const kernel = await createNode(opts);
async function send(from: number, n: number) {
  for (const raw of signedTransfers(kernel, n, from)) {
    await kernel.request({ method: 'eth_sendRawTransaction', params: [raw] });
  }
}
const heap = () => {
  global.gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
await send(0, 500);
const h0 = heap();
await send(500, N);
const h1 = heap();
console.log(
  `heap ${h0.toFixed(1)} -> ${h1.toFixed(1)} MiB over ${N} blocks: ${(((h1 - h0) * 1024) / N).toFixed(1)} KiB/block; rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB, external ${(process.memoryUsage().external / 2 ** 20).toFixed(0)} MiB, arrayBuffers ${(process.memoryUsage().arrayBuffers / 2 ** 20).toFixed(0)} MiB`,
);
for (const sp of v8.getHeapSpaceStatistics())
  console.log(
    sp.space_name.padEnd(28),
    (sp.space_size / 2 ** 20).toFixed(1).padStart(7),
    'MiB committed',
    (sp.space_used_size / 2 ** 20).toFixed(1).padStart(7),
    'MiB used',
  );
if (process.env.SNAP) v8.writeHeapSnapshot(process.env.SNAP);
await kernel.close();
