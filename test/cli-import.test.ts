/**
 * `ashlar import`, `ashlar export` and `--import` on the execution-apis test chain, run as a user
 * would: the real CLI in a child process, a LevelDB directory between the commands.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const TESTS = fileURLToPath(new URL('fixtures/execution-apis/tests', import.meta.url));
const GENESIS = join(TESTS, 'genesis.json');
const CHAIN = join(TESTS, 'chain.rlp');
const dir = mkdtempSync(join(tmpdir(), 'ashlar-import-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ashlar(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn(
    process.execPath,
    ['--conditions=@ashlar/source', '--import', 'tsx', 'packages/cli/src/bin.ts', ...args],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => {
    stdout += d;
  });
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((res) => proc.on('exit', (code) => res({ code, stdout, stderr })));
}

describe('ashlar --import', () => {
  it('imports before it serves: the node answers on the imported head', async () => {
    const proc = spawn(
      process.execPath,
      [
        '--conditions=@ashlar/source',
        '--import',
        'tsx',
        'packages/cli/src/bin.ts',
        ...['--genesis', GENESIS, '--import', CHAIN, '--memory', '--port', '0', '--no-automine'],
      ],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = await new Promise<string>((res, rej) => {
        let out = '';
        proc.stdout.on('data', (d) => {
          out += d;
          const m = /Listening on (http:\/\/\S+)/.exec(out);
          if (m) res(m[1]);
        });
        proc.on('exit', (code) => rej(new Error(`exited ${code}`)));
      });
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' }),
      });
      expect(((await res.json()) as { result: string }).result).toBe('0x36');
    } finally {
      proc.kill('SIGTERM');
    }
  }, 60_000);
});

describe('ashlar import / export', () => {
  const db = join(dir, 'chain');

  it('imports chain.rlp into --db and says how far it got (a log line, not a bar, off a terminal)', async () => {
    const r = await ashlar(['import', CHAIN, '--genesis', GENESIS, '--db', db]);
    expect(r.stderr).toMatch(/imported 54 blocks from .*chain\.rlp in [\d.]+ s; head is block 54/);
    expect(r.stderr).not.toMatch(/\[#+/);
    expect(r.code).toBe(0);
  }, 60_000);

  it('exports the stored chain back to the same bytes, and a range', async () => {
    const out = join(dir, 'out.rlp');
    const r = await ashlar(['export', out, '--genesis', GENESIS, '--db', db]);
    expect(r.code).toBe(0);
    expect(readFileSync(out).equals(readFileSync(CHAIN))).toBe(true);
    const part = join(dir, 'part.rlp');
    expect((await ashlar(['export', part, '1', '1', '--genesis', GENESIS, '--db', db])).stderr).toMatch(
      /exported 1 blocks/,
    );
    expect(readFileSync(CHAIN).subarray(0, readFileSync(part).length).equals(readFileSync(part))).toBe(true);
  }, 60_000);

  it('fails with the number and reason of the first bad block', async () => {
    const truncated = join(dir, 'truncated.rlp');
    writeFileSync(truncated, readFileSync(CHAIN).subarray(0, 30_000));
    const r = await ashlar(['import', truncated, '--genesis', GENESIS, '--memory']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ashlar: error: invalid block #21 of the file: truncated RLP item/);
  }, 60_000);
});
