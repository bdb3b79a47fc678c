import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kernel } from '@ashlar/core';
import { createNode } from 'ashlar';
import { type Hex, decodeFunctionResult, encodeDeployData, encodeFunctionData } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, loadArtifact } from './helpers/contracts.js';
import { type TestNode, startNode } from './helpers/node.js';

const token = loadArtifact('Token');
const [alice, bob] = DEV_ACCOUNTS;
const dave = '0x000000000000000000000000000000000000da7e';

async function rpc<T = unknown>(k: Kernel, method: string, params: unknown[] = []): Promise<T> {
  return (await k.request({ method, params })) as T;
}

/** Upstream state requests the fork has made so far (ForkStateSource's counter). */
function upstreamStateCalls(k: Kernel): number {
  const fork = k.services.chain.fork;
  if (!fork) throw new Error('not a fork');
  return fork.source.stats.upstreamStateCalls;
}

async function balanceOf(k: Kernel, tokenAddress: string, who: string): Promise<bigint> {
  const data = encodeFunctionData({ abi: token.abi, functionName: 'balanceOf', args: [who as Hex] });
  const out = await rpc<Hex>(k, 'eth_call', [{ to: tokenAddress, data }, 'latest']);
  return decodeFunctionResult({ abi: token.abi, functionName: 'balanceOf', data: out }) as bigint;
}

/** What a client reads first on a fork: a balance, a contract's code, token balances by eth_call. */
async function readAround(k: Kernel, tokenAddress: string): Promise<unknown[]> {
  return [
    await rpc(k, 'eth_getBalance', [dave, 'latest']),
    await rpc(k, 'eth_getCode', [tokenAddress, 'latest']),
    await balanceOf(k, tokenAddress, alice.address),
    await balanceOf(k, tokenAddress, bob.address),
    await rpc(k, 'eth_getTransactionCount', [alice.address, 'latest']),
  ];
}

describe('fork on a LevelDB chain: restart with a warm cache', () => {
  let upstream: TestNode;
  let tokenAddress: string;
  let forkBlock: bigint;
  const dir = mkdtempSync(join(tmpdir(), 'ashlar-fork-restart-'));

  beforeAll(async () => {
    upstream = await startNode();
    const u = upstream.kernel;
    await rpc(u, 'hardhat_setBalance', [dave, '0x1234']);
    const hash = await rpc<Hex>(u, 'eth_sendTransaction', [
      {
        from: alice.address,
        data: encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: ['Tok', 'TOK', 500n] }),
        gas: '0x2dc6c0',
      },
    ]);
    tokenAddress = (await rpc<{ contractAddress: string }>(u, 'eth_getTransactionReceipt', [hash])).contractAddress;
    forkBlock = BigInt(await rpc<Hex>(u, 'eth_blockNumber'));
  });

  afterAll(async () => {
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads state once from the upstream, and after a restart not at all', async () => {
    const first = await createNode({ db: dir, fork: { url: upstream.url } });
    const before = upstreamStateCalls(first);
    const answers = await readAround(first, tokenAddress);
    expect(upstreamStateCalls(first)).toBeGreaterThan(before);
    // Reading again in the same run asks nothing more.
    const asked = upstreamStateCalls(first);
    expect(await readAround(first, tokenAddress)).toEqual(answers);
    expect(upstreamStateCalls(first)).toBe(asked);
    // A transaction on the fork, kept across the restart.
    await rpc(first, 'eth_sendTransaction', [{ from: alice.address, to: dave, value: '0x10' }]);
    await first.close();
    // The upstream moves on meanwhile: the fork stays at its block.
    await rpc(upstream.kernel, 'hardhat_setBalance', [dave, '0x1']);

    const second = await createNode({ db: dir, fork: { url: upstream.url } });
    try {
      expect(BigInt(await rpc<Hex>(second, 'eth_blockNumber'))).toBe(forkBlock + 1n);
      expect(upstreamStateCalls(second)).toBe(0);
      const again = await readAround(second, tokenAddress);
      expect(again.slice(1, 4)).toEqual(answers.slice(1, 4));
      expect(again[0]).toBe('0x1244'); // 0x1234 at N, plus the 0x10 sent on the fork
      expect(BigInt(again[4] as string)).toBe(BigInt(answers[4] as string) + 1n); // alice sent it
      expect(upstreamStateCalls(second)).toBe(0);
      // Served by the fork cache in the chain's database (eth_call's reads are not kept in the state).
      expect(second.services.chain.fork?.source.stats.cacheHits).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('an in-memory fork keeps its upstream answers in a cache folder: the next run asks nothing', async () => {
    const cacheDir = join(dir, 'cache');
    const first = await createNode({ fork: { url: upstream.url, blockNumber: forkBlock, cacheDir } });
    const answers = await readAround(first, tokenAddress);
    expect(upstreamStateCalls(first)).toBeGreaterThan(0);
    await first.close();
    const second = await createNode({ fork: { url: upstream.url, blockNumber: forkBlock, cacheDir } });
    try {
      expect(await readAround(second, tokenAddress)).toEqual(answers);
      expect(upstreamStateCalls(second)).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('refuses to reopen the database at another fork block, naming both', async () => {
    await expect(createNode({ db: dir, fork: { url: upstream.url, blockNumber: forkBlock - 1n } })).rejects.toThrow(
      `holds a fork at block ${forkBlock}, not ${forkBlock - 1n}`,
    );
  });
});

describe('fork of a block whose header does not re-encode to its hash (hardhat_mine on an Ashlar upstream)', () => {
  it("keeps the upstream's hash for N, across a restart", async () => {
    const upstream = await startNode();
    const dir = mkdtempSync(join(tmpdir(), 'ashlar-fork-mined-'));
    try {
      await rpc(upstream.kernel, 'hardhat_mine', ['0x20']);
      const n = await rpc<{ hash: string; number: string }>(upstream.kernel, 'eth_getBlockByNumber', ['latest', false]);
      // Started and stopped at N: the reopened chain takes N from its database.
      const first = await createNode({ db: dir, fork: { url: upstream.url } });
      await first.close();
      const second = await createNode({ db: dir, fork: { url: upstream.url } });
      try {
        await rpc(second, 'evm_mine');
        const next = await rpc<{ parentHash: string }>(second, 'eth_getBlockByNumber', ['latest', false]);
        expect(next.parentHash).toBe(n.hash);
        // eth_feeHistory over a range reaching below N starts at N.
        const fees = await rpc<{ oldestBlock: string }>(second, 'eth_feeHistory', ['0x10', 'latest', []]);
        expect(fees.oldestBlock).toBe(n.number);
        // A fork made in place (hardhat_reset) names the upstream's hash too.
        await rpc(second, 'hardhat_reset', [{ forking: { jsonRpcUrl: upstream.url, blockNumber: n.number } }]);
        await rpc(second, 'evm_mine');
        const again = await rpc<{ parentHash: string }>(second, 'eth_getBlockByNumber', ['latest', false]);
        expect(again.parentHash).toBe(n.hash);
      } finally {
        await second.close();
      }
    } finally {
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
