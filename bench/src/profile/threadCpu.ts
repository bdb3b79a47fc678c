// Node CPU per transaction of one `ashlar --memory` (started as `npm start` starts it), split
// into its JavaScript thread and all its other threads (V8's compiler and GC helpers, libuv's
// pool), for each repetition of the peers' harness workloads run against that same node. The
// first repetition is what the peers' table shows for a fresh node; the later ones show what is
// left once V8 has compiled the transaction path. Linux only: it reads /proc/PID/task/*/stat.
//
//   node --import tsx bench/src/profile/threadCpu.ts --harness=DIR [--only=W2] [--reps=4] [--ops=1000]
//        [--warm=W1] [--peer='COMMAND {port}' [--peer-cwd=DIR]]
//
// DIR is the folder of the harness's bench.mjs (../shared/bench); --ops divides the CPU figures
// (1,000 transactions for W2 or W4's transfers). The CLI is the compiled one: run `npx tsc -b` first.
// --warm runs first, uncounted, as in the peers' run, where W1 precedes W2 (`--warm=` runs none).
// --peer measures another node the same way instead (the peers' Hardhat, say): COMMAND is run by
// the shell with {port} replaced; the process that listens is measured, so `env … node …` works
// and a wrapper that forks does not; --peer-cwd is its working directory (Hardhat's node wants its
// project's).
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startCli } from '../cli.js';
import { ROOT, opt } from './args.js';

const harness = opt('harness', process.env.ASHLAR_PEER_BENCH ?? '');
const only = opt('only', 'W2');
const reps = Number(opt('reps', '4'));
const ops = Number(opt('ops', '1000'));
const warm = opt('warm', 'W1');
const peer = opt('peer', '');
const peerCwd = opt('peer-cwd', process.cwd());
if (!harness || !existsSync(join(harness, 'bench.mjs'))) {
  console.error('usage: threadCpu.ts --harness=DIR (the folder of the peers harness bench.mjs) [--only=W2] [--reps=4]');
  process.exit(2);
}

/** CPU ms (utime + stime) of the process's main thread and of all its other threads, from /proc. */
export function threadCpuMs(pid: number): { main: number; other: number } {
  const tick = 10; // USER_HZ is 100 on Linux: a clock tick is 10 ms
  let main = 0;
  let other = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended between the listing and the read
    }
    // Fields after the command name, which is in parentheses and may hold spaces: utime, stime are 14th, 15th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (Number(f[11]) + Number(f[12])) * tick;
    if (tid === String(pid)) main += ms;
    else other += ms;
  }
  return { main, other };
}

/** A peer node started by the shell, as the peers' run starts it; stopped with SIGINT. */
async function startPeer(command: string): Promise<{ child: ChildProcess; url: string; stop(): Promise<void> }> {
  const port = 29_000 + Math.floor(Math.random() * 900);
  const url = `http://127.0.0.1:${port}`;
  // exec: the shell becomes the node, so the pid measured is the peer's own.
  const child = spawn('sh', ['-c', `exec ${command.replaceAll('{port}', String(port))}`], {
    cwd: peerCwd,
    stdio: 'ignore',
  });
  for (let i = 0; ; i++) {
    try {
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
      });
      break;
    } catch {
      if (i > 300 || child.exitCode !== null) throw new Error(`the peer did not answer on ${url}: ${command}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    child,
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
}

// The harness folder may be read-only and without node_modules: run a copy that resolves ours.
const dir = join(ROOT, 'bench/.harness');
mkdirSync(dir, { recursive: true });
for (const f of ['bench.mjs', 'artifacts.json']) copyFileSync(join(harness, f), join(dir, f));

const node = peer ? await startPeer(peer) : await startCli(ROOT, ['--memory']);
const pid = node.child.pid as number;
const runHarness = (workloads: string, out: string) =>
  new Promise<void>((res, rej) => {
    const args = [join(dir, 'bench.mjs'), '--url', node.url, '--pid', String(pid), '--only', workloads, '--json', out];
    const h = spawn(process.execPath, args, { stdio: 'ignore' });
    h.once('exit', (c) => (c === 0 ? res() : rej(new Error(`harness exited with ${c}`))));
  });
console.log(
  `${peer || 'ashlar --memory'} (pid ${pid}), harness ${only}${warm ? ` after ${warm}` : ''}, ${reps} repetitions; µs of CPU per operation (${ops} operations)`,
);
if (warm) await runHarness(warm, join(dir, 'threads-warm.json'));
console.log('rep  main thread  other threads  total  harness figures');
try {
  let before = threadCpuMs(pid);
  for (let r = 1; r <= reps; r++) {
    const out = join(dir, `threads-${r}.json`);
    await runHarness(only, out);
    const after = threadCpuMs(pid);
    const main = ((after.main - before.main) * 1000) / ops;
    const other = ((after.other - before.other) * 1000) / ops;
    before = after;
    const figures = (
      JSON.parse(readFileSync(out, 'utf8')) as { figures: { id: string; value: number | null }[] }
    ).figures
      .filter((f) => f.id.endsWith('.mined') || f.id.endsWith('balanceOf'))
      .map((f) => `${f.id} ${f.value}`)
      .join(', ');
    console.log(
      `${String(r).padStart(3)}  ${main.toFixed(0).padStart(11)}  ${other.toFixed(0).padStart(13)}  ${(main + other).toFixed(0).padStart(5)}  ${figures}`,
    );
  }
} finally {
  await node.stop();
}
