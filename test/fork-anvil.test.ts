import type { Kernel } from '@ashlar/core';
import { createNode } from 'ashlar';
import { type Hex, decodeFunctionResult, encodeDeployData, encodeFunctionData } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, loadArtifact } from './helpers/contracts.js';
import { type Peer, startAnvil } from './helpers/devPeers.js';

const token = loadArtifact('Token');
const [alice, bob] = DEV_ACCOUNTS;
const dead = '0x000000000000000000000000000000000000dead';

async function rpc<T = unknown>(k: Kernel, method: string, params: unknown[] = []): Promise<T> {
  return (await k.request({ method, params })) as T;
}

async function anvil<T = unknown>(peer: Peer, method: string, params: unknown[] = []): Promise<T> {
  const answer = await peer.call(method, params);
  if (answer.error) throw new Error(`anvil ${method}: ${answer.error.message}`);
  return answer.result as T;
}

/** Anvil answers eth_sendTransaction before it mines: its receipt, once there (bounded wait). */
async function mined<T = { contractAddress: string }>(peer: Peer, hash: Hex): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const receipt = await anvil<T | null>(peer, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`anvil did not mine ${hash} within 5 s`);
}

/** Anvil 1.7.1 as the upstream: another client's headers, hashes and state answers. */
describe('fork of an Anvil node', () => {
  let upstream: Peer;
  let fork: Kernel;
  let tokenAddress: string;
  let forkBlock: { number: string; hash: string };

  beforeAll(async () => {
    upstream = await startAnvil();
    await anvil(upstream, 'anvil_mine', ['0x3']);
    const deploy = await anvil<Hex>(upstream, 'eth_sendTransaction', [
      {
        from: alice.address,
        data: encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: ['Tok', 'TOK', 500n] }),
      },
    ]);
    tokenAddress = (await mined(upstream, deploy)).contractAddress;
    await mined(
      upstream,
      await anvil<Hex>(upstream, 'eth_sendTransaction', [{ from: alice.address, to: dead, value: '0x100' }]),
    );
    forkBlock = await anvil(upstream, 'eth_getBlockByNumber', ['latest', false]);
    fork = await createNode({ fork: { url: upstream.url as string, cache: false } });
    // Anvil moves on (a block first: its state edits change the state of its latest block).
    await anvil(upstream, 'anvil_mine', ['0x1']);
    await anvil(upstream, 'anvil_setBalance', [dead, '0x1']);
  });

  afterAll(async () => {
    await fork?.close();
    await upstream?.close();
  });

  it("starts at Anvil's block N, reads its state and mines N+1 on N's hash", async () => {
    expect(await rpc(fork, 'eth_chainId')).toBe('0x7a69');
    expect(await rpc(fork, 'eth_blockNumber')).toBe(forkBlock.number);
    expect(await rpc(fork, 'eth_getBalance', [dead, 'latest'])).toBe('0x100');
    const data = encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [bob.address, 7n] });
    const hash = await rpc<Hex>(fork, 'eth_sendTransaction', [{ from: alice.address, to: tokenAddress, data }]);
    const receipt = await rpc<{ status: string; blockNumber: string }>(fork, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    expect(BigInt(receipt.blockNumber)).toBe(BigInt(forkBlock.number) + 1n);
    const block = await rpc<{ parentHash: string }>(fork, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
    expect(block.parentHash).toBe(forkBlock.hash);
    const out = await rpc<Hex>(fork, 'eth_call', [
      {
        to: tokenAddress,
        data: encodeFunctionData({ abi: token.abi, functionName: 'balanceOf', args: [bob.address] }),
      },
      'latest',
    ]);
    expect(decodeFunctionResult({ abi: token.abi, functionName: 'balanceOf', data: out })).toBe(7n);
  });

  it("serves Anvil's history at or below N as Anvil answers it", async () => {
    const n = forkBlock.number;
    expect(await rpc(fork, 'eth_getBlockByNumber', [n, true])).toEqual(
      await anvil(upstream, 'eth_getBlockByNumber', [n, true]),
    );
    expect(await rpc(fork, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: n, address: tokenAddress }])).toEqual(
      await anvil(upstream, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: n, address: tokenAddress }]),
    );
  });
});
