// Heap per automined block: heap after a full GC at block marks, KiB per block between them, and
// optionally a heap snapshot at each mark (read them with retainers.ts).
//
//   node --expose-gc --conditions=@ashlar/source --import tsx bench/src/profile/heap.ts
//   env: MARKS=1000,5000 (blocks after a 500-block warm-up; N=2000 is MARKS=2000), DB=dir (LevelDB
//        instead of memory), SNAP=prefix (writes prefix-<mark>.heapsnapshot), OPTS={json createNode options}
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { createNode } from 'ashlar';
import { signedTransfers } from '../signedTransfers.js';

const marks = (process.env.MARKS ?? process.env.N ?? '2000').split(',').map(Number);
const opts = JSON.parse(process.env.OPTS ?? '{}');
const dbDir = process.env.DB === '1' ? mkdtempSync(join(tmpdir(), 'ashlar-heap-')) : process.env.DB;
if (dbDir) opts.db = join(dbDir, 'chain');
const kernel = await createNode(opts);
let nonce = 0;
async function sendUntil(to: number) {
  while (nonce < to) {
    const n = Math.min(500, to - nonce);
    for (const raw of signedTransfers(kernel, n, nonce))
      await kernel.request({ method: 'eth_sendRawTransaction', params: [raw] });
    nonce += n;
  }
}
const mib = (b: number) => (b / 2 ** 20).toFixed(1);
const heap = () => {
  global.gc?.();
  global.gc?.();
  return process.memoryUsage().heapUsed;
};
await sendUntil(500);
const h0 = heap();
console.log(
  `${dbDir ? 'LevelDB' : 'memory'}: heap after 500 blocks ${mib(h0)} MiB${global.gc ? '' : ' (no --expose-gc: not after GC)'}`,
);
let prev = { at: 500, h: h0 };
for (const mark of marks) {
  await sendUntil(500 + mark);
  const h = heap();
  const mu = process.memoryUsage();
  console.log(
    `+${mark} blocks: heap ${mib(h)} MiB, ${(((h - prev.h) / 1024) * (1000 / (500 + mark - prev.at))).toFixed(0)} KiB per 1,000 blocks since the last mark; rss ${mib(mu.rss)} heapTotal ${mib(mu.heapTotal)} external ${mib(mu.external)} arrayBuffers ${mib(mu.arrayBuffers)} MiB`,
  );
  prev = { at: 500 + mark, h };
  if (process.env.SNAP) v8.writeHeapSnapshot(`${process.env.SNAP}-${mark}.heapsnapshot`);
}
if (process.env.SPACES)
  for (const sp of v8.getHeapSpaceStatistics())
    console.log(
      sp.space_name.padEnd(28),
      mib(sp.space_size).padStart(7),
      'MiB committed',
      mib(sp.space_used_size).padStart(7),
      'MiB used',
    );
await kernel.close();
if (process.env.DB === '1' && dbDir) rmSync(dbDir, { recursive: true, force: true });
