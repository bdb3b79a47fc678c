// npm run bench: Ashlar's hot paths in-process, the growth figures (RSS on LevelDB, eth_getLogs
// over 10,000 logs, cold start), then the peers' JSON-RPC harness (bench.mjs, the one the peer
// figures come from) over HTTP against `ashlar --memory`, when --harness=DIR or
// ASHLAR_PEER_BENCH names a folder holding it.
// Flags: --quick (smaller runs), --only=a,b (sections: inprocess, callframes, dev, ws, explorer, growth, logs, http, limits, trace).
// --no-peers: the dev section without its Hardhat comparison.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callFramesBench } from './callFrames.js';
import { getLogsAt10k, rssGrowth } from './chainGrowth.js';
import { startCli } from './cli.js';
import { devSuiteBench } from './devSuite.js';
import { explorerBench } from './explorer.js';
import { inProcess } from './inProcess.js';
import { limitsBench } from './limits.js';
import { logsReceiptsBench } from './logsReceipts.js';
import { traceBench } from './trace.js';
import { wsBench } from './ws.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
/** Folder of the peers' harness (bench.mjs + artifacts.json); nothing outside the repository by default. */
const HARNESS = argv.find((a) => a.startsWith('--harness='))?.slice(10) ?? process.env.ASHLAR_PEER_BENCH;
const quick = argv.includes('--quick');
const only = argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
const wanted = (section: string) => !only || only.includes(section);

async function sharedHarness(): Promise<unknown> {
  if (!HARNESS)
    return { skipped: 'no harness: pass --harness=DIR or set ASHLAR_PEER_BENCH to the folder of bench.mjs' };
  const SHARED = resolve(HARNESS);
  if (!existsSync(join(SHARED, 'bench.mjs'))) return { skipped: `${SHARED}/bench.mjs not found` };
  // The harness folder may be read-only and without node_modules: run a copy that resolves ours.
  const dir = join(ROOT, 'bench/.harness');
  mkdirSync(dir, { recursive: true });
  for (const f of ['bench.mjs', 'artifacts.json']) copyFileSync(join(SHARED, f), join(dir, f));
  const node = await startCli(ROOT, ['--memory']);
  const out = join(dir, 'result.json');
  try {
    await new Promise<void>((res, rej) => {
      const args = [join(dir, 'bench.mjs'), '--url', node.url, '--pid', String(node.child.pid), '--json', out];
      const h = spawn(process.execPath, quick ? [...args, '--quick'] : args, { stdio: 'inherit' });
      h.once('exit', (c) => (c === 0 ? res() : rej(new Error(`harness exited with ${c}`))));
    });
  } finally {
    await node.stop();
  }
  return JSON.parse(readFileSync(out, 'utf8'));
}

// The CLI runs compiled, as `npm start` runs it.
execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b'], { cwd: ROOT, stdio: 'inherit' });

const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, quick };
if (wanted('inprocess')) {
  results.inProcess = await inProcess(quick);
  console.log(results.inProcess);
}
if (wanted('callframes')) {
  results.callFrames = await callFramesBench(quick);
  console.log(results.callFrames);
}
if (wanted('dev')) {
  results.devSuite = await devSuiteBench(quick, !argv.includes('--no-peers'));
  console.log(results.devSuite);
}
if (wanted('ws')) {
  results.ws = await wsBench(quick);
  console.log(results.ws);
}
if (wanted('explorer')) {
  results.explorer = await explorerBench(quick);
  console.log(results.explorer);
}
if (wanted('growth')) {
  const cold = await startCli(ROOT, ['--memory']);
  await cold.stop();
  results.growth = {
    'cold start of ashlar --memory to first answer, ms': Math.round(cold.coldStartMs),
    ...(await getLogsAt10k(ROOT)),
    ...(await rssGrowth(ROOT, quick)),
    ...(await rssGrowth(ROOT, quick, 'memory')),
  };
  console.log(results.growth);
}
if (wanted('logs')) {
  results.logs = await logsReceiptsBench(quick);
  console.log(results.logs);
}
if (wanted('limits')) {
  results.limits = await limitsBench(quick);
  console.log(results.limits);
}
if (wanted('trace')) {
  results.trace = await traceBench(quick);
  console.log(results.trace);
}
if (wanted('http')) results.http = await sharedHarness();
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
const file = join(ROOT, `bench/results/${new Date().toISOString().slice(0, 16).replace(':', '')}.local.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`written ${file}`);
