// How much JavaScript one automined transaction runs in `ashlar --memory` (started as `npm start`
// starts it, plus --inspect on loopback): V8's precise coverage counts every function call and
// every executed block while the peers' harness runs its workloads, so the figures are counts,
// the same on a busy machine as on a quiet one. That is the point: node CPU per transaction of a
// fresh node is mostly V8 compiling and running the code a transaction executes, and CPU timings
// on this 2-core machine vary by 25-40% from minute to minute, so an A/B of "less code per
// transaction" is read here first and timed afterwards.
//
//   node --import tsx bench/src/profile/callCounts.ts --harness=DIR [--warm=W1] [--only=W2 | --script=PATH] [--ops=1000] [--top=40] [--sort=calls] [--cli=PATH]
//
// --warm runs first and is not counted (as the peers' run, where W1 precedes W2); the counted
// window is --only, divided by --ops. Per transaction it prints the calls and the executed source
// characters (each executed block's length times its count) by package or source file, and the
// functions that ran the most source. The node runs with TurboFan off (--no-opt): optimised code
// does not count calls, so with it the counts depended on when V8 optimised what (two runs of one
// build differed by 2x); without it two runs agree within 0.2%. Caveats: an async function counts
// a call at its start and at every resumption after an await, and its body's characters with
// them, and comments inside a function body count as its source (tsc keeps them): compare builds
// with this, and read single figures with care. --cli compares another build (its
// packages/cli/dist/bin.js).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ROOT, opt } from './args.js';

const harness = opt('harness', process.env.ASHLAR_PEER_BENCH ?? '');
const warm = opt('warm', 'W1');
const only = opt('only', 'W2');
const ops = Number(opt('ops', '1000'));
const top = Number(opt('top', '40'));
const cli = opt('cli', join(ROOT, 'packages/cli/dist/bin.js'));
const script = opt('script', '');
/** `calls` lists the functions called most first instead of those that ran the most source. */
const sortBy = opt('sort', 'chars') === 'calls' ? 'calls' : 'chars';
if (!harness || !existsSync(join(harness, 'bench.mjs'))) {
  console.error(
    'usage: callCounts.ts --harness=DIR (the folder of the peers harness bench.mjs) [--only=W2] [--ops=1000]',
  );
  process.exit(2);
}

interface CoverageRange {
  startOffset: number;
  endOffset: number;
  count: number;
}
interface FunctionCoverage {
  functionName: string;
  ranges: CoverageRange[];
}
interface ScriptCoverage {
  url: string;
  functions: FunctionCoverage[];
}

/** A small DevTools-protocol client over the inspector's WebSocket. */
class Inspector {
  private next = 1;
  private readonly waiting = new Map<number, (r: { result?: unknown; error?: { message: string } }) => void>();
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { id?: number; result?: unknown; error?: { message: string } };
      if (m.id !== undefined) this.waiting.get(m.id)?.(m);
    });
  }
  static async open(url: string): Promise<Inspector> {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 30 });
    await new Promise((res, rej) => ws.once('open', res).once('error', rej));
    return new Inspector(ws);
  }
  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.next++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise<T>((res, rej) =>
      this.waiting.set(id, (m) => {
        this.waiting.delete(id);
        if (m.error) rej(new Error(`${method}: ${m.error.message}`));
        else res(m.result as T);
      }),
    );
  }
  close(): void {
    this.ws.close();
  }
}

// The harness folder may be read-only and without node_modules: run a copy that resolves ours.
const dir = join(ROOT, 'bench/.harness');
mkdirSync(dir, { recursive: true });
for (const f of ['bench.mjs', 'artifacts.json']) copyFileSync(join(harness, f), join(dir, f));

const child = spawn(
  process.execPath,
  ['--v8-pool-size=0', '--no-opt', '--inspect=127.0.0.1:0', cli, '--memory', '--port', '0'],
  {
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
const [inspectUrl, url] = await new Promise<[string, string]>((res, rej) => {
  let out = '';
  let err = '';
  let ws: string | undefined;
  const check = () => {
    ws ??= /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(err)?.[0];
    const http = /Listening on (http:\/\/[^\s]+)/.exec(out)?.[1] ?? /(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    if (ws && http) res([ws, http]);
  };
  child.stdout.on('data', (d: Buffer) => {
    out += d;
    check();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d;
    check();
  });
  child.once('exit', (c) => rej(new Error(`ashlar exited with ${c}: ${err}`)));
});
child.stdout.resume();
child.stderr.resume();

/** A client script of your own as the counted window, run as `node SCRIPT URL` (e.g. 1,000 ERC-20 transfers alone). */
function runScript(path: string): Promise<void> {
  return new Promise<void>((res, rej) => {
    const h = spawn(process.execPath, [path, url], { stdio: 'ignore' });
    h.once('exit', (c) => (c === 0 ? res() : rej(new Error(`${path} exited with ${c}`))));
  });
}

function runHarness(which: string): Promise<void> {
  return new Promise<void>((res, rej) => {
    const args = [join(dir, 'bench.mjs'), '--url', url, '--only', which, '--json', join(dir, 'counts.json')];
    const h = spawn(process.execPath, args, { stdio: 'ignore' });
    h.once('exit', (c) => (c === 0 ? res() : rej(new Error(`harness ${which} exited with ${c}`))));
  });
}

const settle = () => new Promise((res) => setTimeout(res, 500));

const insp = await Inspector.open(inspectUrl);
try {
  await insp.send('Profiler.enable');
  await insp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  if (warm) await runHarness(warm);
  // The node's own follow-up of a workload (the explorer index catches up once the chain has been
  // idle 50 ms) belongs to that workload: wait for it on both sides of the window.
  await settle();
  await insp.send('Profiler.takePreciseCoverage'); // resets the counts: the window starts here
  if (script) await runScript(script);
  else await runHarness(only);
  await settle();
  const { result } = await insp.send<{ result: ScriptCoverage[] }>('Profiler.takePreciseCoverage');
  report(result);
} finally {
  insp.close();
  child.kill('SIGINT');
}

/** Where a script's code belongs: a package of node_modules, a workspace file, or node's own. */
function ownerOf(scriptUrl: string): string {
  // Node's own modules by file (node:internal/streams/readable): "node:internal" alone hid which.
  if (scriptUrl.startsWith('node:')) return scriptUrl;
  const nm = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(scriptUrl);
  if (nm) return nm[1];
  const ws = /packages\/([^/]+)\/(?:dist|src)\/(.+?)\.[jt]s$/.exec(scriptUrl);
  return ws ? `${ws[1]}/${ws[2]}` : scriptUrl;
}

/**
 * Per function: its calls (the count of its first range) and the source characters its executed
 * blocks cover, each block counted as often as it ran. Ranges nest (a function's whole body, then
 * blocks with other counts inside): a character belongs to the innermost range holding it.
 */
function report(scripts: ScriptCoverage[]): void {
  const byOwner = new Map<string, { calls: number; chars: number }>();
  const byFunction = new Map<string, { calls: number; chars: number }>();
  let calls = 0;
  let chars = 0;
  for (const s of scripts) {
    const owner = ownerOf(s.url);
    for (const f of s.functions) {
      const fnCalls = f.ranges[0]?.count ?? 0;
      if (fnCalls === 0) continue;
      const fnChars = executedChars(f.ranges);
      calls += fnCalls;
      chars += fnChars;
      const o = byOwner.get(owner) ?? { calls: 0, chars: 0 };
      o.calls += fnCalls;
      o.chars += fnChars;
      byOwner.set(owner, o);
      const key = `${f.functionName || '(anonymous)'}  ${owner}`;
      const e = byFunction.get(key) ?? { calls: 0, chars: 0 };
      e.calls += fnCalls;
      e.chars += fnChars;
      byFunction.set(key, e);
    }
  }
  const per = (n: number) => (n / ops).toFixed(1).padStart(9);
  console.log(
    `${script || only} after ${warm || 'nothing'}, per operation (${ops}): ${per(calls)} calls, ${per(chars)} source chars executed`,
  );
  console.log('\n    calls     chars  by package or file');
  for (const [k, v] of [...byOwner].sort((a, b) => b[1].chars - a[1].chars).slice(0, top))
    console.log(`${per(v.calls)} ${per(v.chars)}  ${k}`);
  console.log(`\n    calls     chars  functions, ${sortBy === 'calls' ? 'most called' : 'most source run'} first`);
  for (const [k, v] of [...byFunction].sort((a, b) => b[1][sortBy] - a[1][sortBy]).slice(0, top))
    console.log(`${per(v.calls)} ${per(v.chars)}  ${k}`);
}

/** Σ over characters of the count of the innermost range holding it. */
function executedChars(ranges: CoverageRange[]): number {
  // Ranges come outermost first; nested ranges override their parent's count on their span.
  let total = 0;
  // A stack walk over ranges sorted by start (then by longer first).
  const sorted = [...ranges].sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  const stack: CoverageRange[] = [];
  let pos = sorted[0]?.startOffset ?? 0;
  const flushTo = (to: number) => {
    const top = stack[stack.length - 1];
    if (top && to > pos) total += (to - pos) * top.count;
    pos = Math.max(pos, to);
  };
  for (const r of sorted) {
    while (stack.length > 0 && stack[stack.length - 1].endOffset <= r.startOffset) {
      flushTo(stack[stack.length - 1].endOffset);
      stack.pop();
    }
    flushTo(r.startOffset);
    stack.push(r);
  }
  while (stack.length > 0) {
    flushTo(stack[stack.length - 1].endOffset);
    stack.pop();
  }
  return total;
}
