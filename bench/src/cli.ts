// Starts `ashlar` as `npm start` runs it (the compiled CLI, built by `tsc -b` first) and reads its
// URL from the banner.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RunningCli {
  child: ChildProcess;
  url: string;
  /** From spawn to the first answer of eth_chainId. */
  coldStartMs: number;
  rssMiB(): number;
  stop(): Promise<void>;
}

export async function startCli(root: string, args: string[]): Promise<RunningCli> {
  const t0 = performance.now();
  // The node options `npm start` passes (package.json): V8's background pool sized to the cores,
  // a young generation of 2 × 8 MB, and 192 MB of old generation before the first full GC.
  const child = spawn(
    process.execPath,
    [
      '--v8-pool-size=0',
      '--max-semi-space-size=8',
      '--initial-old-space-size=192',
      join(root, 'packages/cli/dist/bin.js'),
      '--port',
      '0',
      ...args,
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /Listening on (http:\/\/[^\s]+)/.exec(buf);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`ashlar exited with ${code}`)));
  });
  child.stdout?.resume();
  await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
  });
  const coldStartMs = performance.now() - t0;
  return {
    child,
    url,
    coldStartMs,
    rssMiB() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round((kb / 1024) * 10) / 10;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
