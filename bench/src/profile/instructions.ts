// Instructions a fresh `ashlar --memory` executes for a window of the peers' harness (W2 after
// W1 by default), counted by valgrind's callgrind: an A/B of two builds that reads the same on a
// busy machine as on a quiet one. Node CPU per transaction on this 2-core host varies 10-40% from
// minute to minute (stolen time is charged to whatever runs), so a change worth 1-3% cannot be
// timed; counted, it can.
//
//   node --import tsx bench/src/profile/instructions.ts --harness=DIR [--only=W2] [--warm=W1]
//        [--cli=PATH ...] [--flags='NODE FLAGS'] [--env='NAME=VALUE ...'] [--ops=1000] [--concurrent]
//
// Each --cli (default: this checkout's packages/cli/dist/bin.js) runs on a fresh node under
// `valgrind --tool=callgrind --instr-atstart=no` with `npm start`'s node options; nothing is
// counted until the warm-up workload has run, then everything until the counted one has returned
// (the harness's window, plus the ~20 ms of shutting the counter off). Two builds run side by
// side, one per core. Needs valgrind (Debian: `apt-get install valgrind`); a window takes ~2 min.
//
// By default V8 compiles synchronously and collects garbage on the JavaScript thread
// (--no-concurrent-recompilation --single-threaded-gc): with a compiler thread the count moved by
// ±10% between runs of one build (what the compiler thread did depended on when its jobs ran),
// without it by ±0.5%. That weighs compilation more than a real node does (it is ~40% of the
// count), so read a difference as a direction and a size, and confirm it in the peers' run.
// --concurrent counts as a real node runs instead (all threads).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT, argv, opt } from './args.js';

const harness = opt('harness', process.env.ASHLAR_PEER_BENCH ?? '');
const only = opt('only', 'W2');
const warm = opt('warm', 'W1');
const ops = Number(opt('ops', '1000'));
const extraFlags = opt('flags', '').split(/\s+/).filter(Boolean);
const extraEnv = Object.fromEntries(
  opt('env', '')
    .split(/\s+/)
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const concurrent = argv.includes('--concurrent');
const clis = argv.filter((a) => a.startsWith('--cli=')).map((a) => resolve(a.slice(6)));
if (clis.length === 0) clis.push(join(ROOT, 'packages/cli/dist/bin.js'));
if (!harness || !existsSync(join(harness, 'bench.mjs'))) {
  console.error('usage: instructions.ts --harness=DIR (the folder of the peers harness bench.mjs) [--cli=PATH ...]');
  process.exit(2);
}

// The harness folder may be read-only and without node_modules: run a copy that resolves ours.
const harnessDir = join(ROOT, 'bench/.harness');
mkdirSync(harnessDir, { recursive: true });
for (const f of ['bench.mjs', 'artifacts.json']) copyFileSync(join(harness, f), join(harnessDir, f));

/** npm start's node options (package.json), and the deterministic compile and GC unless --concurrent. */
const NODE_FLAGS = [
  '--v8-pool-size=0',
  '--max-semi-space-size=8',
  '--initial-old-space-size=192',
  ...(concurrent ? [] : ['--no-concurrent-recompilation', '--single-threaded-gc']),
  ...extraFlags,
];

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((res, rej) => {
    const p = spawn(cmd, args, { stdio: 'ignore', env });
    p.once('error', rej);
    p.once('exit', (c) => res(c ?? 1));
  });
}

/** Instructions of one fresh node over the counted window, by thread (main first). */
async function count(cli: string): Promise<{ main: number; other: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'ashlar-instr-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const node = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(dir, 'cg')}`,
      process.execPath,
      ...NODE_FLAGS,
      cli,
      '--memory',
      '--port',
      String(port),
    ],
    { stdio: 'ignore', env: { ...process.env, ...extraEnv } },
  );
  try {
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        const r = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
        });
        if (r.ok) break;
      } catch {
        if (i > 600) throw new Error(`${cli} did not answer on ${url} under valgrind`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const bench = (w: string) =>
      run(process.execPath, [join(harnessDir, 'bench.mjs'), '--url', url, '--only', w, '--workload-timeout', '3000']);
    if (warm) await bench(warm);
    await run('callgrind_control', ['-i', 'on', String(node.pid)]);
    await bench(only);
    await run('callgrind_control', ['-i', 'off', String(node.pid)]);
    await run('callgrind_control', ['-d', String(node.pid)]);
    node.kill('SIGINT');
    await new Promise((r) => node.once('exit', r));
    // The dump's parts, one file per thread: cg.1-01 is the JavaScript thread.
    const totals = readdirSync(dir)
      .filter((f) => f.startsWith('cg.1-'))
      .map((f) => ({ f, ir: Number(/^totals: (\d+)/m.exec(readFileSync(join(dir, f), 'utf8'))?.[1] ?? 0) }));
    const main = totals.find((t) => t.f === 'cg.1-01')?.ir ?? 0;
    const all = totals.reduce((s, t) => s + t.ir, 0);
    return { main, other: all - main };
  } finally {
    node.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `${only} after ${warm || 'nothing'}, instructions per operation (${ops}), ${concurrent ? 'concurrent compiles and GC' : 'synchronous compiles and GC'}`,
);
for (let i = 0; i < clis.length; i += 2) {
  const pair = clis.slice(i, i + 2);
  const counts = await Promise.all(pair.map((c) => count(c)));
  pair.forEach((cli, j) => {
    const { main, other } = counts[j];
    const k = (n: number) => `${Math.round(n / ops / 1000).toLocaleString('en-US')}k`.padStart(8);
    console.log(`${k(main + other)} total  ${k(main)} JavaScript thread  ${k(other)} other threads  ${cli}`);
  });
}
