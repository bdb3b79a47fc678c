/**
 * `ashlar --print-traces` (issue #18): the call tree of each mined transaction on stdout, with
 * the contract's name, function and arguments decoded from a verified build (--artifacts), the
 * revert reason, and console.sol lines in place.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Interface } from 'ethers';
import { afterAll, expect, it } from 'vitest';
import { compile, writeHardhatBuild } from './helpers/buildInfo.js';
import { runningClis, startCli } from './helpers/cli.js';
import { CONSOLE_SOURCE } from './helpers/consoleContract.js';

const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const dir = mkdtempSync(join(tmpdir(), 'ashlar-traces-'));

afterAll(() => {
  for (const p of runningClis) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

it('prints each mined transaction as a call tree with names from --artifacts and console lines in place', async () => {
  const build = compile({ 'Logs.sol': { content: CONSOLE_SOURCE } });
  const artifacts = writeHardhatBuild(dir, build);
  const logs = build.output.contracts['Logs.sol'].Logs;
  const iface = new Interface(logs.abi);
  const cli = startCli(['--memory', '--port', '0', '--no-explorer-ui', '--print-traces', '--artifacts', artifacts]);
  try {
    const url = await cli.url;
    let id = 0;
    const rpc = async (method: string, params: unknown[] = []): Promise<unknown> => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      });
      const body = (await res.json()) as { result?: unknown; error?: { message: string } };
      if (body.error) throw new Error(body.error.message);
      return body.result;
    };
    const deployHash = await rpc('eth_sendTransaction', [{ from: A0, data: `0x${logs.evm.bytecode.object}` }]);
    const { contractAddress } = (await rpc('eth_getTransactionReceipt', [deployHash])) as { contractAddress: string };
    // Verification from the build folder happens as the deployment is indexed.
    for (let i = 0; i < 100; i++) {
      const c = (await fetch(`${url}/api/v2/smart-contracts/${contractAddress}`).then((r) => r.json())) as {
        name?: string;
      };
      if (c.name === 'Logs') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const runData = iface.encodeFunctionData('run', [-5, '0xdeadbeef', '0x12345678', `0x${'ab'.repeat(32)}`]);
    const runHash = await rpc('eth_sendTransaction', [
      { from: A0, to: contractAddress, data: runData, gas: '0x100000' },
    ]);
    const failData = iface.encodeFunctionData('fail');
    await expect(
      rpc('eth_sendTransaction', [{ from: A0, to: contractAddress, data: failData, gas: '0x100000' }]),
    ).rejects.toThrow(/nope/);
    for (let i = 0; i < 100 && !cli.stdout().includes('[Revert] nope'); i++)
      await new Promise((r) => setTimeout(r, 50));
    const out = cli.stdout();

    const run = out.slice(out.indexOf(`Traces (transaction ${runHash}):`));
    const runLines = run.split('\n');
    expect(runLines[1]).toMatch(
      new RegExp(
        `^  \\[\\d+\\] Logs\\(${contractAddress}\\)::run\\(-5, 0xdeadbeef, 0x12345678, 0x${'ab'.repeat(32)}\\)$`,
      ),
    );
    expect(runLines[2]).toBe('    ├─ [0] console.log("")');
    expect(runLines[3]).toBe('    ├─ [0] console.log("plain string")');
    expect(runLines[4]).toBe('    ├─ [0] console.log("count 1 of 1000")');
    expect(runLines[18]).toBe('    └─ ← [Stop]');

    expect(out).toMatch(
      new RegExp(
        `Traces \\(transaction 0x[0-9a-f]{64}\\):\\n  \\[\\d+\\] Logs\\(${contractAddress}\\)::fail\\(\\)\\n    ├─ \\[0\\] console.log\\("about to fail at 2"\\)\\n    └─ ← \\[Revert\\] nope\\n`,
      ),
    );
    // The deployment: a creation of the named contract.
    expect(out).toMatch(new RegExp(`→ new (Logs\\()?${contractAddress}\\)? \\[create\\]`));
  } finally {
    cli.proc.kill('SIGTERM');
    await cli.exit;
  }
}, 90_000);
