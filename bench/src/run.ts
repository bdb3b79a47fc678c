// npm run bench: Ashlar's hot paths in-process, then ../shared/bench's JSON-RPC workloads over
// HTTP against `ashlar --memory` (the same harness the peer figures in
// ../shared/bench/results/peers.md come from). Results go to bench/results/<date>.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inProcess } from './inProcess.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const SHARED = resolve(ROOT, '../shared/bench');
const args = new Set(process.argv.slice(2));

async function startCli(extra: string[]): Promise<{ child: ChildProcess; url: string; ms: number }> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      '--conditions=@ashlar/source',
      '--import',
      'tsx',
      join(ROOT, 'packages/cli/src/bin.ts'),
      '--memory',
      '--port',
      '0',
      ...extra,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((res, rej) => {
    let buf = '';
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /Listening on (http:\/\/[^\s]+)/.exec(buf);
      if (m) res(m[1]);
    });
    child.once('exit', (c) => rej(new Error(`ashlar exited with ${c}`)));
  });
  // cold start: process spawn to the first JSON-RPC answer
  await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
  });
  return { child, url, ms: performance.now() - t0 };
}

async function sharedHarness(): Promise<unknown> {
  if (!existsSync(join(SHARED, 'bench.mjs'))) return { skipped: `${SHARED}/bench.mjs not found` };
  // ../shared is read-only and has no node_modules: run a copy that resolves ours.
  const dir = join(ROOT, 'bench/.harness');
  mkdirSync(dir, { recursive: true });
  for (const f of ['bench.mjs', 'artifacts.json']) copyFileSync(join(SHARED, f), join(dir, f));
  const node = await startCli([]);
  const out = join(dir, 'result.json');
  try {
    await new Promise<void>((res, rej) => {
      const h = spawn(
        process.execPath,
        [
          join(dir, 'bench.mjs'),
          '--url',
          node.url,
          '--pid',
          String(node.child.pid),
          '--json',
          out,
          ...(args.has('--quick') ? ['--quick'] : []),
        ],
        { stdio: 'inherit' },
      );
      h.once('exit', (c) => (c === 0 ? res() : rej(new Error(`harness exited with ${c}`))));
    });
  } finally {
    node.child.kill('SIGTERM');
  }
  const { readFileSync } = await import('node:fs');
  return { coldStartMs: node.ms, harness: JSON.parse(readFileSync(out, 'utf8')) };
}

const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version };
if (!args.has('--http-only')) results.inProcess = await inProcess(args.has('--quick'));
if (!args.has('--in-process-only')) results.http = await sharedHarness();
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
const file = join(ROOT, `bench/results/${new Date().toISOString().slice(0, 16).replace(':', '')}.local.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(JSON.stringify(results.inProcess, null, 2));
console.log(`written ${file}`);
