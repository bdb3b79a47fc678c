import type { Kernel } from '@ashlar/core';
import { createNode } from 'ashlar';
import { type Hex, decodeFunctionResult, encodeDeployData, encodeFunctionData, padHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, loadArtifact } from './helpers/contracts.js';
import { type TestNode, startNode } from './helpers/node.js';

const token = loadArtifact('Token');
const [alice, bob] = DEV_ACCOUNTS;
const carol = '0x00000000000000000000000000000000000c4a01';
const whale = '0x000000000000000000000000000000000000a11e';

async function rpc<T = unknown>(k: Kernel, method: string, params: unknown[] = []): Promise<T> {
  return (await k.request({ method, params })) as T;
}

async function send(k: Kernel, tx: Record<string, unknown>): Promise<Record<string, unknown>> {
  const hash = await rpc<Hex>(k, 'eth_sendTransaction', [tx]);
  const receipt = await rpc<Record<string, unknown>>(k, 'eth_getTransactionReceipt', [hash]);
  expect(receipt.status).toBe('0x1');
  return receipt;
}

function balanceOfCall(who: string): Hex {
  return encodeFunctionData({ abi: token.abi, functionName: 'balanceOf', args: [who as Hex] });
}

async function tokenBalance(k: Kernel, address: string, who: string, block: string = 'latest'): Promise<bigint> {
  const out = await rpc<Hex>(k, 'eth_call', [{ to: address, data: balanceOfCall(who) }, block]);
  return decodeFunctionResult({ abi: token.abi, functionName: 'balanceOf', data: out }) as bigint;
}

/**
 * The upstream: a second Ashlar node over HTTP, seeded with balances and an ERC-20, then moved on
 * after the fork block. The fork must keep seeing block N.
 */
describe('fork of a local upstream', () => {
  let upstream: TestNode;
  let fork: Kernel;
  let tokenAddress: string;
  let forkBlock: bigint;
  let forkBlockHash: string;
  let transferHash: string;

  beforeAll(async () => {
    upstream = await startNode({ chain: { chainId: 4242 } });
    const u = upstream.kernel;
    await rpc(u, 'hardhat_setBalance', [whale, '0x3635c9adc5dea00000']); // 1000 ETH
    const deploy = await send(u, {
      from: alice.address,
      data: encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: ['Tok', 'TOK', 1_000_000n] }),
      gas: '0x2dc6c0',
    });
    tokenAddress = deploy.contractAddress as string;
    const t = await send(u, {
      from: alice.address,
      to: tokenAddress,
      data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [bob.address, 1000n] }),
    });
    transferHash = t.transactionHash as string;
    forkBlock = BigInt(await rpc<Hex>(u, 'eth_blockNumber'));
    forkBlockHash = (await rpc<{ hash: string }>(u, 'eth_getBlockByNumber', [`0x${forkBlock.toString(16)}`, false]))
      .hash;
    fork = await createNode({ fork: { url: upstream.url, cache: false } });
    // The upstream moves on after N: the fork must not see any of it.
    await send(u, {
      from: alice.address,
      to: tokenAddress,
      data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [carol, 5n] }),
    });
    await rpc(u, 'hardhat_setBalance', [whale, '0x1']);
  });

  afterAll(async () => {
    await fork?.close();
    await upstream?.close();
  });

  it('starts at the upstream block N with its chain id, hash and base fee', async () => {
    expect(await rpc(fork, 'eth_chainId')).toBe('0x1092');
    expect(BigInt(await rpc<Hex>(fork, 'eth_blockNumber'))).toBe(forkBlock);
    const n = await rpc<{ hash: string }>(fork, 'eth_getBlockByNumber', ['latest', false]);
    expect(n.hash).toBe(forkBlockHash);
  });

  it('reads balances, code and storage of block N lazily', async () => {
    expect(BigInt(await rpc<Hex>(fork, 'eth_getBalance', [whale, 'latest']))).toBe(1000n * 10n ** 18n);
    expect(await rpc(fork, 'eth_getCode', [tokenAddress, 'latest'])).toBe(
      await rpc(upstream.kernel, 'eth_getCode', [tokenAddress, `0x${forkBlock.toString(16)}`]),
    );
    expect(await tokenBalance(fork, tokenAddress, bob.address)).toBe(1000n);
    expect(await tokenBalance(fork, tokenAddress, carol)).toBe(0n);
    expect(await tokenBalance(fork, tokenAddress, alice.address)).toBe(1_000_000n - 1000n);
  });

  it('mines N+1 on top of N: parent hash and the base fee follow on from N', async () => {
    const r = await send(fork, {
      from: alice.address,
      to: tokenAddress,
      data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [carol, 7n] }),
    });
    expect(BigInt(r.blockNumber as string)).toBe(forkBlock + 1n);
    const b = await rpc<{ parentHash: string }>(fork, 'eth_getBlockByNumber', [r.blockNumber, false]);
    expect(b.parentHash).toBe(forkBlockHash);
    expect(await tokenBalance(fork, tokenAddress, carol)).toBe(7n);
    expect(await tokenBalance(fork, tokenAddress, bob.address)).toBe(1000n);
  });
});
