import { createNode } from 'ashlar';
import type { Kernel } from '@ashlar/core';
import { encodeFunctionData } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArtifact } from './helpers/contracts.js';

// Spec §8: a node-signed transaction without `gas` gets 90000, or the estimate when it needs
// more (as geth and Hardhat fill it); without fee fields it is legacy at gasPrice 0x9184e72a000.
describe('eth_sendTransaction defaults', () => {
  let k: Kernel;
  let from: string;
  const rpc = <T>(method: string, params: unknown[] = []) => k.request({ method, params }) as Promise<T>;
  const txOf = (hash: string) =>
    rpc<{ gas: string; gasPrice: string; type: string }>('eth_getTransactionByHash', [hash]);

  beforeAll(async () => {
    k = await createNode();
    from = k.chain.accounts[0].address.toString();
  });
  afterAll(() => k.close());

  it('gives a plain transfer 90000 gas and the default gas price', async () => {
    const hash = await rpc<string>('eth_sendTransaction', [
      { from, to: k.chain.accounts[1].address.toString(), value: '0x1' },
    ]);
    const tx = await txOf(hash);
    expect(tx.gas).toBe('0x15f90');
    expect(tx.type).toBe('0x0');
    expect(tx.gasPrice).toBe('0x9184e72a000');
  });

  it('gives a deployment that needs more than 90000 its estimate', async () => {
    const counter = loadArtifact('Counter');
    const estimate = BigInt(await rpc<string>('eth_estimateGas', [{ from, data: counter.bytecode }]));
    expect(estimate).toBeGreaterThan(90_000n);
    const hash = await rpc<string>('eth_sendTransaction', [{ from, data: counter.bytecode }]);
    expect(BigInt((await txOf(hash)).gas)).toBe(estimate);
    const rc = await rpc<{ status: string }>('eth_getTransactionReceipt', [hash]);
    expect(rc.status).toBe('0x1');
  });

  it('gives a transaction that reverts whatever its gas 90000, and mines it as a failure', async () => {
    const counter = loadArtifact('Counter');
    const deploy = await rpc<string>('eth_sendTransaction', [{ from, data: counter.bytecode }]);
    const { contractAddress } = await rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deploy]);
    const data = encodeFunctionData({ abi: counter.abi, functionName: 'fail' });
    // Mined as a failure: the send answers Hardhat's error, with the hash in its data.
    const err = await rpc<string>('eth_sendTransaction', [{ from, to: contractAddress, data }]).then(
      () => undefined,
      (e: { code?: number; data?: { txHash?: string } }) => e,
    );
    expect(err?.code).toBe(-32603);
    const hash = err?.data?.txHash as string;
    expect((await txOf(hash)).gas).toBe('0x15f90');
    const rc = await rpc<{ status: string; gasUsed: string }>('eth_getTransactionReceipt', [hash]);
    expect(rc.status).toBe('0x0');
    expect(BigInt(rc.gasUsed)).toBeLessThan(90_000n);
  });
});
