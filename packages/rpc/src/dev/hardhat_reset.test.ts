import { type Kernel, createKernel } from '@ashlar/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';

let k: Kernel;
const rpc = <T = unknown>(method: string, params: unknown[] = []) => k.request<T>({ method, params });
const X = '0x00000000000000000000000000000000000000ee';

beforeEach(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
});
afterEach(() => k.close());

describe('hardhat_reset / anvil_reset', () => {
  it('goes back to genesis: blocks, state, pool, snapshots, impersonations and miner settings', async () => {
    const genesis = await rpc<{ hash: string }>('eth_getBlockByNumber', ['0x0', false]);
    const from = k.chain.accounts[0].address.toString();
    const mined = await rpc<string>('eth_sendTransaction', [{ from, to: X, value: '0x1' }]);
    await rpc('hardhat_mine', ['0x100']);
    await rpc('hardhat_setBalance', [X, '0x99']);
    await rpc('hardhat_impersonateAccount', [X]);
    await rpc('evm_increaseTime', [1000]);
    await rpc('evm_setBlockGasLimit', ['0x1000000']);
    const snap = await rpc('evm_snapshot');
    await rpc('evm_setAutomine', [false]);
    await rpc('eth_sendTransaction', [{ from, to: X, value: '0x1' }]);
    const before = await rpc<{ instanceId: string }>('hardhat_metadata');

    expect(await rpc('hardhat_reset')).toBe(true);
    expect(await rpc('eth_blockNumber')).toBe('0x0');
    expect((await rpc<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).hash).toBe(genesis.hash);
    expect(await rpc('eth_getTransactionReceipt', [mined])).toBeNull();
    expect(await rpc('eth_getBlockByNumber', ['0x1', false])).toBeNull();
    expect(await rpc('eth_getBalance', [X, 'latest'])).toBe('0x0');
    expect(await rpc('txpool_status')).toEqual({ pending: '0x0', queued: '0x0' });
    expect(await rpc('evm_revert', [snap])).toBe(false);
    expect(await rpc('hardhat_getAutomine')).toBe(true);
    expect(k.miner.timeOffset).toBe(0n);
    expect(k.miner.gasLimit).toBe(k.options.chain.gasLimit);
    await expect(rpc('eth_sendTransaction', [{ from: X, to: from }])).rejects.toMatchObject({ code: -32000 });
    expect((await rpc<{ instanceId: string }>('hardhat_metadata')).instanceId).not.toBe(before.instanceId);
    // and the chain goes on from genesis
    expect(await rpc('evm_snapshot')).toBe('0x1');
    await rpc('eth_sendTransaction', [{ from, to: X, value: '0x1' }]);
    expect(await rpc('eth_blockNumber')).toBe('0x1');
  });

  it("accepts viem's options without a fork URL (anvil_reset)", async () => {
    expect(await rpc('anvil_reset', [{ forking: { blockNumber: null } }])).toBe(true);
  });

  it('refuses bad options (-32602 naming them); forking itself is test/fork.test.ts', async () => {
    await expect(rpc('hardhat_reset', [{ forking: { jsonRpcUrl: 'ftp://127.0.0.1:1' } }])).rejects.toMatchObject({
      code: -32602,
      message: /options.*fork\.url must be an http\(s\) URL/,
    });
    await expect(rpc('hardhat_reset', [{ forking: { jsonRpcUrl: 7 } }])).rejects.toMatchObject({
      code: -32602,
      message: /options.*forking\.jsonRpcUrl/,
    });
    await expect(rpc('hardhat_reset', ['now'])).rejects.toMatchObject({ code: -32602, message: /options/ });
  });
});

describe('hardhat_metadata / anvil_nodeInfo', () => {
  it('describes the node', async () => {
    await rpc('evm_mine');
    const meta = await rpc<Record<string, unknown>>('hardhat_metadata');
    expect(meta).toEqual({
      // Hardhat names its engine here (edr/…/revm/…), not its web3_clientVersion
      clientVersion: expect.stringMatching(/^ashlar\/\d+\.\d+\.\d+\//),
      chainId: 31337,
      instanceId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      latestBlockNumber: 1,
      latestBlockHash: (await rpc<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).hash,
    });
    const info = await rpc<Record<string, unknown>>('anvil_nodeInfo');
    expect(info).toMatchObject({
      currentBlockNumber: '0x1',
      currentBlockHash: meta.latestBlockHash,
      hardFork: k.chain.common.hardfork(),
      environment: { chainId: 31337, gasLimit: '0x1c9c380' },
      forkConfig: { forkUrl: null },
    });
    expect(typeof info.currentBlockTimestamp).toBe('number');
  });

  it("anvil_metadata answers Anvil 1.7's fields, with the snapshots held", async () => {
    const id = await rpc<string>('evm_snapshot');
    const meta = await rpc<Record<string, unknown>>('anvil_metadata');
    const head = await rpc<{ hash: string; number: string }>('eth_getBlockByNumber', ['latest', false]);
    expect(meta).toEqual({
      clientVersion: k.options.clientVersion,
      clientSemver: expect.any(String),
      clientCommitSha: expect.any(String),
      chainId: 31337,
      instanceId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      latestBlockNumber: Number(head.number),
      latestBlockHash: head.hash,
      forkedNetwork: null,
      snapshots: { [id]: [Number(head.number), head.hash] },
    });
    await rpc('evm_revert', [id]);
  });
});
