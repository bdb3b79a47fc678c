import { gunzipSync } from 'node:zlib';
import { type Kernel, injectRoute } from '@ashlar/core';
import { createNode } from 'ashlar';
import {
  type Hex,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  keccak256,
  padHex,
} from 'viem';
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

const hex = (n: bigint): Hex => `0x${n.toString(16)}`;

/** Storage slot of `balanceOf[who]` in Token (its mapping is the fourth variable: slot 3). */
function balanceSlot(who: string): Hex {
  return keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [who as Hex, 3n]));
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
  let transferBlock: bigint;
  let atFork: string;

  beforeAll(async () => {
    upstream = await startNode({ chain: { chainId: 4242, gasLimit: 36_000_000n } });
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
    transferBlock = BigInt(t.blockNumber as string);
    forkBlock = BigInt(await rpc<Hex>(u, 'eth_blockNumber'));
    forkBlockHash = (await rpc<{ hash: string }>(u, 'eth_getBlockByNumber', [`0x${forkBlock.toString(16)}`, false]))
      .hash;
    fork = await createNode({ fork: { url: upstream.url, cache: false } });
    atFork = await rpc<string>(fork, 'evm_snapshot');
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
    expect(n).toEqual(await rpc(upstream.kernel, 'eth_getBlockByNumber', [hex(forkBlock), false]));
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
    const b = await rpc<{ parentHash: string; gasLimit: string }>(fork, 'eth_getBlockByNumber', [r.blockNumber, false]);
    expect(b.parentHash).toBe(forkBlockHash);
    // Without a gas limit of its own, the fork's blocks take block N's (as Anvil's).
    expect(BigInt(b.gasLimit)).toBe(36_000_000n);
    expect(await tokenBalance(fork, tokenAddress, carol)).toBe(7n);
    expect(await tokenBalance(fork, tokenAddress, bob.address)).toBe(1000n);
  });

  it('the explorer lists the blocks from the fork point on: N as the first, nothing below', async () => {
    const list = await injectRoute<{ items: { height: number; transaction_count: number }[] }>(
      fork.routes,
      'GET',
      '/api/v2/blocks',
    );
    expect(list.status).toBe(200);
    expect(list.body.items.map((b) => b.height)).toEqual([Number(forkBlock) + 1, Number(forkBlock)]);
    const below = await injectRoute(fork.routes, 'GET', `/api/v2/blocks/${forkBlock - 1n}`);
    expect(below.status).toBe(404);
    // The dev accounts funded at the fork block are the chain's richest, as on a chain of its own.
    const top = await injectRoute<{ items: { hash: string }[] }>(fork.routes, 'GET', '/api/v2/addresses');
    expect(top.body.items.map((a) => a.hash.toLowerCase())).toContain(DEV_ACCOUNTS[2].address.toLowerCase());
  });

  it('local writes shadow the upstream, zeros and all', async () => {
    // A zero written by a transaction (bob sends all his tokens) must not fall back to the upstream's 1000.
    await send(fork, {
      from: bob.address,
      to: tokenAddress,
      data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [carol, 1000n] }),
    });
    expect(await tokenBalance(fork, tokenAddress, bob.address)).toBe(0n);
    expect(await rpc(fork, 'eth_getStorageAt', [tokenAddress, balanceSlot(bob.address), 'latest'])).toBe(
      padHex('0x0', { size: 32 }),
    );
    // hardhat_setStorageAt to zero over an upstream slot, and setBalance over an upstream account.
    await rpc(fork, 'hardhat_setStorageAt', [tokenAddress, balanceSlot(alice.address), padHex('0x0', { size: 32 })]);
    expect(await tokenBalance(fork, tokenAddress, alice.address)).toBe(0n);
    await rpc(fork, 'hardhat_setBalance', [whale, '0x7']);
    expect(await rpc(fork, 'eth_getBalance', [whale, 'latest'])).toBe('0x7');
    // The code of an upstream contract is replaced, its storage kept (as Hardhat and Anvil).
    await rpc(fork, 'hardhat_setCode', [carol, '0x6001600055']);
    expect(await rpc(fork, 'eth_getCode', [carol, 'latest'])).toBe('0x6001600055');
    // The upstream still holds its own values.
    expect(await tokenBalance(upstream.kernel, tokenAddress, alice.address, hex(forkBlock))).toBe(1_000_000n - 1000n);
  });

  it('answers state at N as the upstream had it, whatever happened after', async () => {
    const n = hex(forkBlock);
    expect(await tokenBalance(fork, tokenAddress, bob.address, n)).toBe(1000n);
    expect(await tokenBalance(fork, tokenAddress, carol, n)).toBe(0n);
    expect(BigInt(await rpc<Hex>(fork, 'eth_getBalance', [whale, n]))).toBe(1000n * 10n ** 18n);
    expect(await rpc(fork, 'eth_getStorageAt', [tokenAddress, balanceSlot(bob.address), n])).toBe(
      padHex('0x3e8', { size: 32 }),
    );
    expect(await rpc(fork, 'eth_getTransactionCount', [alice.address, n])).toBe(
      await rpc(upstream.kernel, 'eth_getTransactionCount', [alice.address, n]),
    );
    // Below N, state is the upstream's, forwarded.
    const before = hex(transferBlock - 1n);
    expect(await rpc(fork, 'eth_getCode', [tokenAddress, before])).toBe(
      await rpc(upstream.kernel, 'eth_getCode', [tokenAddress, before]),
    );
    expect(await rpc(fork, 'eth_getBalance', [alice.address, before])).toBe(
      await rpc(upstream.kernel, 'eth_getBalance', [alice.address, before]),
    );
  });

  it('estimates gas and traces new transactions on the fork', async () => {
    const data = encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [bob.address, 1n] });
    const gas = BigInt(await rpc<Hex>(fork, 'eth_estimateGas', [{ from: carol, to: tokenAddress, data }]));
    expect(gas).toBeGreaterThan(21_000n);
    await rpc(fork, 'hardhat_setBalance', [carol, '0xde0b6b3a7640000']);
    const r = await send(fork, { from: alice.address, to: carol, value: '0x1' });
    const trace = await rpc<{ type: string; to: string }>(fork, 'debug_traceTransaction', [
      r.transactionHash,
      { tracer: 'callTracer' },
    ]);
    expect(trace.type).toBe('CALL');
    expect(trace.to).toBe(carol);
  });

  it('impersonates an upstream account and sends from it', async () => {
    await rpc(fork, 'evm_revert', [atFork]);
    atFork = await rpc<string>(fork, 'evm_snapshot');
    await rpc(fork, 'hardhat_impersonateAccount', [whale]);
    const r = await send(fork, { from: whale, to: carol, value: hex(10n ** 18n) });
    expect(BigInt(await rpc<Hex>(fork, 'eth_getBalance', [carol, 'latest']))).toBe(10n ** 18n);
    const left = BigInt(await rpc<Hex>(fork, 'eth_getBalance', [whale, 'latest']));
    const fee = BigInt(r.gasUsed as string) * BigInt(r.effectiveGasPrice as string);
    expect(left).toBe(1000n * 10n ** 18n - 10n ** 18n - fee);
    await rpc(fork, 'hardhat_stopImpersonatingAccount', [whale]);
  });

  it('evm_revert goes back to the fork point: the upstream values show again', async () => {
    await send(fork, {
      from: bob.address,
      to: tokenAddress,
      data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [carol, 400n] }),
    });
    expect(await tokenBalance(fork, tokenAddress, bob.address)).toBe(600n);
    expect(await rpc(fork, 'evm_revert', [atFork])).toBe(true);
    expect(BigInt(await rpc<Hex>(fork, 'eth_blockNumber'))).toBe(forkBlock);
    expect(await tokenBalance(fork, tokenAddress, bob.address)).toBe(1000n);
    expect(await tokenBalance(fork, tokenAddress, carol)).toBe(0n);
    expect(BigInt(await rpc<Hex>(fork, 'eth_getBalance', [whale, 'latest']))).toBe(1000n * 10n ** 18n);
    // Dev accounts keep their usual balance on the fork (over the upstream nonce).
    expect(BigInt(await rpc<Hex>(fork, 'eth_getBalance', [alice.address, 'latest']))).toBe(10_000n * 10n ** 18n);
  });

  it('serves blocks, transactions, receipts and logs at or below N from the upstream', async () => {
    const n = hex(transferBlock);
    const local = await rpc<Record<string, unknown>>(fork, 'eth_getBlockByNumber', [n, true]);
    expect(local).toEqual(await rpc(upstream.kernel, 'eth_getBlockByNumber', [n, true]));
    expect((local.transactions as unknown[]).length).toBe(1);
    expect(await rpc(fork, 'eth_getBlockByHash', [local.hash, false])).toEqual(
      await rpc(upstream.kernel, 'eth_getBlockByHash', [local.hash, false]),
    );
    expect(await rpc(fork, 'eth_getTransactionByHash', [transferHash])).toEqual(
      await rpc(upstream.kernel, 'eth_getTransactionByHash', [transferHash]),
    );
    expect(await rpc(fork, 'eth_getTransactionReceipt', [transferHash])).toEqual(
      await rpc(upstream.kernel, 'eth_getTransactionReceipt', [transferHash]),
    );
    expect(await rpc(fork, 'eth_getBlockTransactionCountByNumber', [n])).toBe('0x1');
    expect(await rpc(fork, 'eth_getBlockReceipts', [n])).toEqual(
      await rpc(upstream.kernel, 'eth_getBlockReceipts', [n]),
    );
    expect(await rpc(fork, 'eth_getTransactionByBlockNumberAndIndex', [n, '0x0'])).toEqual(
      await rpc(upstream.kernel, 'eth_getTransactionByBlockNumberAndIndex', [n, '0x0']),
    );
    expect(await rpc(fork, 'eth_getTransactionByBlockHashAndIndex', [local.hash, '0x0'])).toEqual(
      await rpc(upstream.kernel, 'eth_getTransactionByBlockHashAndIndex', [local.hash, '0x0']),
    );
    expect(await rpc(fork, 'eth_getBlockTransactionCountByHash', [local.hash])).toBe('0x1');
    expect(await rpc(fork, 'eth_getLogs', [{ blockHash: local.hash }])).toEqual(
      await rpc(upstream.kernel, 'eth_getLogs', [{ blockHash: local.hash }]),
    );
    // Block N: the upstream's, body and all.
    const forkPoint = await rpc<{ hash: string }>(fork, 'eth_getBlockByNumber', [hex(forkBlock), false]);
    expect(forkPoint).toEqual(await rpc(upstream.kernel, 'eth_getBlockByNumber', [hex(forkBlock), false]));
    // The upstream's blocks after N are not the fork's.
    const later = await rpc<{ hash: string }>(upstream.kernel, 'eth_getBlockByNumber', [hex(forkBlock + 1n), false]);
    expect(await rpc(fork, 'eth_getBlockByHash', [later.hash, false])).toBeNull();
    const laterTx = (
      await rpc<{ transactions: string[] }>(upstream.kernel, 'eth_getBlockByNumber', [hex(forkBlock + 1n), false])
    ).transactions[0];
    expect(await rpc(fork, 'eth_getTransactionByHash', [laterTx])).toBeNull();
    expect(await rpc(fork, 'eth_getTransactionReceipt', [laterTx])).toBeNull();
  });

  it('eth_getLogs over a range across N: upstream part, then the fork', async () => {
    const r = await send(fork, {
      from: bob.address,
      to: tokenAddress,
      data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [carol, 1n] }),
    });
    const logs = await rpc<{ blockNumber: string; transactionHash: string }[]>(fork, 'eth_getLogs', [
      { fromBlock: '0x0', toBlock: 'latest', address: tokenAddress },
    ]);
    const upstreamLogs = await rpc<{ blockNumber: string }[]>(upstream.kernel, 'eth_getLogs', [
      { fromBlock: '0x0', toBlock: hex(forkBlock), address: tokenAddress },
    ]);
    expect(upstreamLogs.length).toBe(2); // mint and transfer
    expect(logs.slice(0, 2)).toEqual(upstreamLogs);
    expect(logs.slice(2).map((l) => l.transactionHash)).toEqual([r.transactionHash]);
    // Only the part after N: the upstream's later transfer to carol is not there.
    const after = await rpc<unknown[]>(fork, 'eth_getLogs', [
      { fromBlock: hex(forkBlock + 1n), address: tokenAddress },
    ]);
    expect(after.length).toBe(1);
  });

  it('eth_getProof: the upstream proves N; after N it is refused with a reason', async () => {
    const n = hex(forkBlock);
    expect(await rpc(fork, 'eth_getProof', [tokenAddress, [balanceSlot(bob.address)], n])).toEqual(
      await rpc(upstream.kernel, 'eth_getProof', [tokenAddress, [balanceSlot(bob.address)], n]),
    );
    await expect(rpc(fork, 'eth_getProof', [tokenAddress, [], 'latest'])).rejects.toThrow(
      /eth_getProof is answered for the fork block/,
    );
  });

  it('hardhat_metadata and anvil_nodeInfo report the fork (Hardhat and Anvil shapes)', async () => {
    const meta = await rpc<Record<string, unknown>>(fork, 'hardhat_metadata');
    expect(meta.forkedNetwork).toEqual({ chainId: 4242, forkBlockNumber: Number(forkBlock), forkBlockHash });
    const info = await rpc<{ forkConfig: Record<string, unknown> }>(fork, 'anvil_nodeInfo');
    expect(info.forkConfig).toEqual({
      forkUrl: upstream.url,
      forkBlockNumber: Number(forkBlock),
      forkRetryBackoff: expect.any(Number),
    });
    const anvilMeta = await rpc<Record<string, unknown>>(fork, 'anvil_metadata');
    expect(anvilMeta.forkedNetwork).toEqual(meta.forkedNetwork);
  });

  it('anvil_dumpState dumps the local state of the fork (the fork marks are not accounts)', async () => {
    const hexDump = await rpc<string>(fork, 'anvil_dumpState');
    const dump = JSON.parse(gunzipSync(Buffer.from(hexDump.slice(2), 'hex')).toString('utf8')) as {
      accounts: Record<string, { balance: string }>;
    };
    expect(BigInt(dump.accounts[alice.address.toLowerCase()]?.balance ?? '0x0')).toBeGreaterThan(0n);
  });

  it('hardhat_reset re-forks at another block, and without params leaves the fork', async () => {
    const earlier = transferBlock - 1n; // before the transfer to bob
    expect(
      await rpc(fork, 'hardhat_reset', [{ forking: { jsonRpcUrl: upstream.url, blockNumber: Number(earlier) } }]),
    ).toBe(true);
    expect(BigInt(await rpc<Hex>(fork, 'eth_blockNumber'))).toBe(earlier);
    expect(await tokenBalance(fork, tokenAddress, bob.address)).toBe(0n);
    expect(await tokenBalance(fork, tokenAddress, alice.address)).toBe(1_000_000n);
    const meta = await rpc<{ forkedNetwork: { forkBlockNumber: number } }>(fork, 'hardhat_metadata');
    expect(meta.forkedNetwork.forkBlockNumber).toBe(Number(earlier));
    const r = await send(fork, { from: alice.address, to: carol, value: '0x1' });
    expect(BigInt(r.blockNumber as string)).toBe(earlier + 1n);
    // Without jsonRpcUrl, the current upstream (as Hardhat's reset uses its configured fork).
    expect(await rpc(fork, 'hardhat_reset', [{ forking: { blockNumber: hex(forkBlock) } }])).toBe(true);
    expect(BigInt(await rpc<Hex>(fork, 'eth_blockNumber'))).toBe(forkBlock);
    expect(await tokenBalance(fork, tokenAddress, bob.address)).toBe(1000n);
    // anvil_reset with no params: the node's own chain, no fork.
    expect(await rpc(fork, 'anvil_reset', [])).toBe(true);
    expect(await rpc(fork, 'eth_blockNumber')).toBe('0x0');
    expect(await rpc(fork, 'eth_getCode', [tokenAddress, 'latest'])).toBe('0x');
    expect(await rpc(fork, 'eth_chainId')).toBe('0x1092');
    expect((await rpc<Record<string, unknown>>(fork, 'hardhat_metadata')).forkedNetwork).toBeUndefined();
    expect((await rpc<{ forkConfig: unknown }>(fork, 'anvil_nodeInfo')).forkConfig).toEqual({
      forkUrl: null,
      forkBlockNumber: null,
      forkRetryBackoff: null,
    });
    const again = await send(fork, { from: alice.address, to: carol, value: '0x1' });
    expect(again.blockNumber).toBe('0x1');
    // The explorer follows: the blocks of the new chain, nothing of the fork's.
    const list = await injectRoute<{ items: { height: number }[] }>(fork.routes, 'GET', '/api/v2/blocks');
    expect(list.body.items.map((b) => b.height)).toEqual([1, 0]);
  });

  it('rejects bad forking params with a message naming them', async () => {
    await expect(rpc(fork, 'hardhat_reset', [{ forking: { jsonRpcUrl: 'ftp://x' } }])).rejects.toThrow(
      /invalid argument 0 \(options\): fork.url must be an http\(s\) URL/,
    );
    await expect(
      rpc(fork, 'hardhat_reset', [{ forking: { jsonRpcUrl: upstream.url, blockNumber: -1 } }]),
    ).rejects.toThrow(/forking.blockNumber must be a non-negative integer/);
  });
});
