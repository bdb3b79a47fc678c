import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export interface Cli {
  proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The URL of the "Listening on" line; rejects if the process exits first. */
  url: Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Processes started by `startCli` and not exited yet, for an afterAll that kills leftovers. */
export const runningClis = new Set<ChildProcess>();

/** Runs the `ashlar` command from its sources, as a user would run it, with stdout/stderr captured. */
export function startCli(args: string[], env: Record<string, string> = {}): Cli {
  const proc = spawn(
    process.execPath,
    ['--conditions=@ashlar/source', '--import', 'tsx', 'packages/cli/src/bin.ts', ...args],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  runningClis.add(proc);
  let out = '';
  let err = '';
  proc.stdout?.setEncoding('utf8');
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (d: string) => {
    err += d;
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    proc.on('exit', (code, signal) => {
      runningClis.delete(proc);
      res({ code, signal });
    }),
  );
  const url = new Promise<string>((res, rej) => {
    proc.stdout?.on('data', (d: string) => {
      out += d;
      const m = /Listening on (https?:\/\/\S+)/.exec(out);
      if (m) res(m[1]);
    });
    void exit.then(({ code }) => rej(new Error(`ashlar exited (${code}) before listening: ${err}`)));
  });
  url.catch(() => undefined);
  return { proc, stdout: () => out, stderr: () => err, url, exit };
}
