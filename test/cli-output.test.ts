/**
 * What `ashlar` prints about the chain (issue #18): one line per mined transaction (method named
 * from a verified build, gas used, block, status), `--log-format json`, and `--silent`. Each
 * line is checked against the transaction's receipt.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Interface } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, writeHardhatBuild } from './helpers/buildInfo.js';
import { runningClis, startCli } from './helpers/cli.js';
import { CONSOLE_SOURCE } from './helpers/consoleContract.js';

const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const A1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const dir = mkdtempSync(join(tmpdir(), 'ashlar-output-'));
const build = compile({ 'Logs.sol': { content: CONSOLE_SOURCE } });
const logs = build.output.contracts['Logs.sol'].Logs;
const iface = new Interface(logs.abi);

afterAll(() => {
  for (const p of runningClis) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

type Rpc = (method: string, params?: unknown[]) => Promise<unknown>;
function rpcAt(url: string): Rpc {
  let id = 0;
  return async (method, params = []) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(body.error.message);
    return body.result;
  };
}

interface Receipt {
  gasUsed: string;
  blockNumber: string;
  status: string;
  contractAddress: string;
}
const receipt = async (rpc: Rpc, h: unknown) => (await rpc('eth_getTransactionReceipt', [h])) as Receipt;
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 100 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
};

describe('mined transaction lines', () => {
  it('prints one line per transaction: method, gas used, block, status', async () => {
    const artifacts = writeHardhatBuild(join(dir, 'text'), build);
    const cli = startCli(['--memory', '--port', '0', '--no-explorer-ui', '--artifacts', artifacts]);
    try {
      const url = await cli.url;
      const rpc = rpcAt(url);
      const deploy = await rpc('eth_sendTransaction', [{ from: A0, data: `0x${logs.evm.bytecode.object}` }]);
      const contract = (await receipt(rpc, deploy)).contractAddress;
      // The build folder verifies the contract as its deployment is indexed.
      for (let i = 0; i < 100; i++) {
        const c = (await fetch(`${url}/api/v2/smart-contracts/${contract}`).then((r) => r.json())) as { name?: string };
        if (c.name === 'Logs') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const run = await rpc('eth_sendTransaction', [
        {
          from: A0,
          to: contract,
          data: iface.encodeFunctionData('run', [1, '0x', '0x00000000', `0x${'00'.repeat(32)}`]),
        },
      ]);
      const fail = iface.encodeFunctionData('fail');
      await expect(
        rpc('eth_sendTransaction', [{ from: A0, to: contract, data: fail, gas: '0x100000' }]),
      ).rejects.toThrow(/nope/);
      const failHash = ((await rpc('eth_getBlockByNumber', ['latest', false])) as { transactions: string[] })
        .transactions[0];
      const transfer = await rpc('eth_sendTransaction', [{ from: A0, to: A1, value: '0x1' }]);
      await until(() => cli.stdout().includes(`${transfer}`));
      const out = cli.stdout();
      const line = async (hash: unknown, method: string, status: string) => {
        const r = await receipt(rpc, hash);
        return `Transaction ${hash}  ${method}  gas ${BigInt(r.gasUsed)}  block #${BigInt(r.blockNumber)}  ${status}\n`;
      };
      // The deployment is printed as its block lands, before verification names it.
      expect(out).toContain(await line(deploy, 'deploy contract', 'success'));
      expect(out).toContain(await line(run, 'Logs#run', 'success'));
      expect(out).toContain(await line(failHash, 'Logs#fail', 'reverted: nope'));
      expect(out).toContain(await line(transfer, 'transfer', 'success'));
      expect(out.split(`Transaction ${run}`).length).toBe(2);
    } finally {
      cli.proc.kill('SIGTERM');
      await cli.exit;
    }
  }, 60_000);
});

describe('--log-format json', () => {
  it('writes one JSON object a line: listening, transactions, console.log', async () => {
    const cli = startCli(['--memory', '--port', '0', '--no-explorer-ui', '--log-format', 'json']);
    try {
      await until(() => cli.stdout().includes('\n'));
      const first = JSON.parse(cli.stdout().split('\n')[0]) as { type: string; url: string };
      expect(first.type).toBe('listening');
      const rpc = rpcAt(first.url);
      const deploy = await rpc('eth_sendTransaction', [{ from: A0, data: `0x${logs.evm.bytecode.object}` }]);
      const contract = (await receipt(rpc, deploy)).contractAddress;
      await rpc('eth_call', [{ from: A0, to: contract, data: iface.encodeFunctionData('peek') }, 'latest']);
      await until(() => cli.stdout().includes('"console"'));
      const objects = cli
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const r = await receipt(rpc, deploy);
      expect(objects[1]).toEqual({
        type: 'transaction',
        hash: deploy,
        block: 1,
        gasUsed: BigInt(r.gasUsed).toString(),
        status: 'success',
        method: 'deploy contract',
      });
      expect(objects[2]).toEqual({
        type: 'console',
        message: 'peek sees 0',
        args: ['peek sees %d', '0'],
        address: contract,
        call: { method: 'eth_call', from: A0, to: contract },
      });
    } finally {
      cli.proc.kill('SIGTERM');
      await cli.exit;
    }
  }, 60_000);
});

describe('--silent', () => {
  it('prints nothing on stdout, even for transactions and console.log', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const cli = startCli(['--memory', '--port', String(port), '--no-explorer-ui', '--silent']);
    try {
      const rpc = rpcAt(`http://127.0.0.1:${port}`);
      let up = false;
      for (let i = 0; i < 200 && !up; i++) {
        up = await rpc('eth_chainId').then(
          () => true,
          () => false,
        );
        if (!up) await new Promise((r) => setTimeout(r, 50));
      }
      expect(up).toBe(true);
      const deploy = await rpc('eth_sendTransaction', [{ from: A0, data: `0x${logs.evm.bytecode.object}` }]);
      const contract = (await receipt(rpc, deploy)).contractAddress;
      await rpc('eth_call', [{ from: A0, to: contract, data: iface.encodeFunctionData('peek') }, 'latest']);
      await new Promise((r) => setTimeout(r, 200));
      expect(cli.stdout()).toBe('');
      expect(cli.stderr()).toBe('');
    } finally {
      cli.proc.kill('SIGTERM');
      await cli.exit;
    }
  }, 60_000);
});
