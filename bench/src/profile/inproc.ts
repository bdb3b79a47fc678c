// In-process write path: CPU per automined transfer and ERC-20 transfer through kernel.request.
import { createNode } from 'ashlar';
import { signedTransfers } from '../signedTransfers.js';
import { Session } from 'node:inspector/promises';
import fs from 'node:fs';

const N = Number(process.env.N ?? 1000);
const kind = process.env.KIND ?? 'transfer';
const opts = JSON.parse(process.env.OPTS ?? '{}');
for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round++) {
  const kernel = await createNode(opts);
  const raws = signedTransfers(kernel, N);
  // warm up
  for (let i = 0; i < 50; i++) await kernel.request({ method: 'evm_mine' });
  let session: Session | undefined;
  if (process.env.PROF && round === Number(process.env.ROUNDS ?? 3) - 1) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  if (process.env.HEAPPROF && round === Number(process.env.ROUNDS ?? 3) - 1) {
    session = new Session();
    session.connect();
    await session.post('HeapProfiler.enable');
    // Every allocation, also what GC collected: the allocation rate, not what stays.
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const raw of raws) await kernel.request({ method: 'eth_sendRawTransaction', params: [raw] });
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  if (session && process.env.HEAPPROF) {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    fs.writeFileSync(process.env.HEAPPROF, JSON.stringify(profile));
  } else if (session) {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(process.env.PROF!, JSON.stringify(profile));
  }
  console.log(
    `${kind}: ${((N / wall) * 1000).toFixed(0)} tx/s, cpu ${((c.user + c.system) / 1000 / N).toFixed(3)} ms/tx, wall ${(wall / N).toFixed(3)} ms/tx, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
  );
  await kernel.close();
}
