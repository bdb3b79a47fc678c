import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runningClis, startCli } from './helpers/cli.js';
import { type TestNode, startNode } from './helpers/node.js';

async function post(
  url: string,
  method: string,
  params: unknown[] = [],
): Promise<{ result?: unknown; error?: unknown }> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await r.json()) as { result?: unknown; error?: unknown };
}

describe('ashlar --fork-url', () => {
  let upstream: TestNode;

  beforeAll(async () => {
    upstream = await startNode({ chain: { chainId: 777 } });
    await upstream.kernel.request({ method: 'hardhat_mine', params: ['0x3'] });
  });

  afterAll(async () => {
    for (const p of runningClis) p.kill('SIGKILL');
    await upstream?.close();
  });

  it('serves a fork of the upstream: its chain id, its block, its state', async () => {
    const cli = startCli(['--fork-url', upstream.url, '--fork-block-number', '2', '--port', '0', '--no-fork-cache']);
    const url = await cli.url;
    expect((await post(url, 'eth_chainId')).result).toBe('0x309');
    expect((await post(url, 'eth_blockNumber')).result).toBe('0x2');
    const block2 = (await upstream.kernel.request({ method: 'eth_getBlockByNumber', params: ['0x2', false] })) as {
      hash: string;
    };
    const info = (await post(url, 'hardhat_metadata')).result as { forkedNetwork: unknown };
    expect(info.forkedNetwork).toEqual({ chainId: 777, forkBlockNumber: 2, forkBlockHash: block2.hash });
    expect(cli.stdout()).toMatch(/Fork: +http:\/\/127\.0\.0\.1:\d+\/ at block 2/);
    cli.proc.kill('SIGTERM');
    expect((await cli.exit).code).toBe(0);
  });

  it('an upstream that does not answer is one line on stderr and exit code 1', async () => {
    const cli = startCli(['--fork-url', 'http://127.0.0.1:9', '--fork-retries', '0', '--port', '0', '--no-fork-cache']);
    const { code } = await cli.exit;
    expect(code).toBe(1);
    expect(cli.stderr()).toMatch(/127\.0\.0\.1:9/);
  });
});
