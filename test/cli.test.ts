import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Cli, runningClis, startCli } from './helpers/cli.js';
import { afterAll, describe, expect, it } from 'vitest';

const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const ACCOUNT1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

const running = runningClis;

const cli = startCli;

let rpcId = 0;
async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

async function stop(c: Cli): Promise<number | null> {
  c.proc.kill('SIGTERM');
  return (await c.exit).code;
}

const tmp = mkdtempSync(join(tmpdir(), 'ashlar-cli-'));
afterAll(() => {
  for (const p of running) p.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

/** The non-empty lines of stderr. */
const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '');

describe('ashlar CLI', () => {
  it('starts in memory, prints the banner, answers JSON-RPC and stops on SIGTERM', async () => {
    const c = cli(['--memory', '--port', '0']);
    const url = await c.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await rpc(url, 'eth_chainId')).toBe('0x7a69');
    expect(await rpc<string[]>(url, 'eth_accounts')).toHaveLength(20);
    const out = c.stdout();
    expect(out).toMatch(/Storage: +memory/);
    expect(out).toMatch(/Chain id: +31337/);
    expect(out).toContain(`(0)  ${ACCOUNT0} (10000 ETH)`);
    expect(out.match(/ \(10000 ETH\)/g)).toHaveLength(20);
    expect(out).toContain('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    expect(out).toContain('test test test test test test test test test test test junk');
    expect(out).not.toContain('\x1b[');
    expect(await stop(c)).toBe(0);
    expect(c.stderr()).toContain('shutting down');
  });

  it('takes its options from the environment', async () => {
    const c = cli(['--port', '0'], { ASHLAR_MEMORY: '1', ASHLAR_CHAIN_ID: '1337', ASHLAR_ACCOUNTS: '2' });
    const url = await c.url;
    expect(await rpc(url, 'eth_chainId')).toBe('0x539');
    expect(await rpc<string[]>(url, 'eth_accounts')).toHaveLength(2);
    expect(await stop(c)).toBe(0);
  });

  it('--help prints every option and exits 0', async () => {
    const c = cli(['--help']);
    expect((await c.exit).code).toBe(0);
    expect(c.stdout()).toMatch(/^Usage: ashlar \[options\]/);
    for (const f of ['--host', '--port', '--db', '--memory', '--chain-id', '--no-automine', '--block-time'])
      expect(c.stdout()).toContain(f);
    expect(c.stdout()).toContain('ASHLAR_BASE_FEE');
  });

  it('a port in use: exit 1 with one line', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const c = cli(['--memory', '--port', String(port)]);
      expect((await c.exit).code).toBe(1);
      expect(lines(c.stderr())).toEqual([`ashlar: error: port ${port} on 127.0.0.1 is in use`]);
    } finally {
      blocker.close();
    }
  });

  it('an unwritable --db: exit 1 with one line', async () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'not a directory');
    const c = cli(['--db', join(file, 'chain'), '--port', '0']);
    expect((await c.exit).code).toBe(1);
    const l = lines(c.stderr());
    expect(l).toHaveLength(1);
    expect(l[0]).toMatch(new RegExp(`^ashlar: error: cannot open database at ${join(file, 'chain')}: `));
  });

  it('a bad flag: exit 1 with one line naming it', async () => {
    const c = cli(['--chain-id', 'zero']);
    expect((await c.exit).code).toBe(1);
    expect(lines(c.stderr())).toEqual([
      'ashlar: error: invalid value for --chain-id: "zero" (expected a positive integer)',
    ]);
    const d = cli(['--frobnicate']);
    expect((await d.exit).code).toBe(1);
    expect(lines(d.stderr())).toEqual(['ashlar: error: unknown option --frobnicate (see --help)']);
  });

  it('restarts on the same --db with the same block number and balances', async () => {
    const db = join(tmp, 'restart');
    const a = cli(['--db', db, '--port', '0']);
    let url = await a.url;
    expect(a.stdout()).toContain(`Storage:      ${db} (LevelDB)`);
    const hash = await rpc<string>(url, 'eth_sendTransaction', [
      { from: ACCOUNT0, to: ACCOUNT1, value: '0xde0b6b3a7640000' },
    ]);
    const receipt = await rpc<{ status: string; blockNumber: string }>(url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    const head = await rpc<string>(url, 'eth_blockNumber');
    expect(head).toBe('0x1');
    const bal0 = await rpc<string>(url, 'eth_getBalance', [ACCOUNT0, 'latest']);
    const bal1 = await rpc<string>(url, 'eth_getBalance', [ACCOUNT1, 'latest']);
    expect(BigInt(bal1)).toBe(10_001n * 10n ** 18n);
    expect(await stop(a)).toBe(0);

    const b = cli(['--db', db, '--port', '0']);
    url = await b.url;
    expect(b.stdout()).toContain(`Storage:      ${db} (LevelDB, resumed at block 1)`);
    expect(b.stdout()).toContain(`${ACCOUNT1} (10001 ETH)`);
    expect(await rpc(url, 'eth_blockNumber')).toBe(head);
    expect(await rpc(url, 'eth_getBalance', [ACCOUNT0, 'latest'])).toBe(bal0);
    expect(await rpc(url, 'eth_getBalance', [ACCOUNT1, 'latest'])).toBe(bal1);
    expect(await rpc(url, 'eth_getTransactionReceipt', [hash])).toEqual(receipt);
    expect(await stop(b)).toBe(0);
  });

  it('--dump-state writes the state at shutdown and --load-state brings it into a fresh chain', async () => {
    const file = join(tmp, 'state.dump');
    const a = cli(['--memory', '--port', '0', '--dump-state', file]);
    let url = await a.url;
    await rpc(url, 'hardhat_setBalance', [ACCOUNT1, '0x1234']);
    await rpc(url, 'hardhat_setCode', ['0x00000000000000000000000000000000000000cc', '0x6001']);
    expect(await stop(a)).toBe(0);

    const b = cli(['--memory', '--port', '0', '--load-state', file]);
    url = await b.url;
    expect(await rpc(url, 'eth_getBalance', [ACCOUNT1, 'latest'])).toBe('0x1234');
    expect(await rpc(url, 'eth_getCode', ['0x00000000000000000000000000000000000000cc', 'latest'])).toBe('0x6001');
    expect(await stop(b)).toBe(0);
  });

  it('refuses a --db made with another chain id, naming both', async () => {
    const db = join(tmp, 'chain-ids');
    const a = cli(['--db', db, '--port', '0', '--chain-id', '1']);
    await a.url;
    expect(await stop(a)).toBe(0);
    const b = cli(['--db', db, '--port', '0', '--chain-id', '2']);
    expect((await b.exit).code).toBe(1);
    const l = lines(b.stderr());
    expect(l).toHaveLength(1);
    expect(l[0]).toMatch(/^ashlar: error: .*chain id 1, not 2/);
  });
});
