// --artifacts verifies contracts that contracts create, found through the block's call frames
// (CREATE/CREATE2 frames name the created address): a child that is never called and never
// logged — Tracer's constructor makes its Callee silently — shows verified like its parent.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kernel } from '@ashlar/core';
import { explorerOf } from '@ashlar/explorer';
import { Interface } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArtifact } from './helpers/contracts.js';
import { compile, writeHardhatBuild } from './helpers/buildInfo.js';
import { type Body, ChainDriver, type Hex, apiOk, explorerKernel } from './helpers/explorerChain.js';

let tmp: string;
let k: Kernel;
let d: ChainDriver;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'ashlar-verify-created-'));
  const dir = join(tmp, 'hh');
  mkdirSync(dir);
  k = await explorerKernel({ explorer: { artifacts: writeHardhatBuild(dir, compile()) } });
  d = new ChainDriver(k);
});
afterAll(async () => {
  await k?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Waits for the artifacts watcher to finish what the last blocks queued. */
async function settle(): Promise<void> {
  const w = explorerOf(k)?.contracts?.watcher;
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 20));
    await w?.idle();
  }
}

const detail = (a: Hex): Promise<Body> => apiOk(k, `/api/v2/smart-contracts/${a}`);

describe('--artifacts and contracts created by contracts', () => {
  it('verifies a child a constructor created without a call or a log', async () => {
    const { address: tracer, hash } = await d.deploy('Tracer');
    const receipt = await k.request<{ logs: unknown[] }>({ method: 'eth_getTransactionReceipt', params: [hash] });
    expect(receipt.logs).toEqual([]);
    const abi = new Interface(loadArtifact('Tracer').abi);
    const out = await k.request<Hex>({
      method: 'eth_call',
      params: [{ to: tracer, data: abi.encodeFunctionData('callee') }, 'latest'],
    });
    const callee = abi.decodeFunctionResult('callee', out)[0] as Hex;
    expect(await k.request({ method: 'eth_getCode', params: [callee, 'latest'] })).not.toBe('0x');
    await settle();

    expect((await detail(tracer)).name).toBe('Tracer');

    const child = await detail(callee);
    expect(child.is_verified).toBe(true);
    expect(child.name).toBe('Callee');
    expect(child.file_path).toBe('Tracer.sol');
    // Made by a contract (inside Tracer's creation transaction): the transaction's input is
    // Tracer's, not the child's, so no creation input is shown for it.
    expect(child.creation_bytecode).toBeNull();
    expect(child.constructor_args).toBeNull();
    expect((await detail(tracer)).creation_bytecode).toBe(
      (await k.request<{ input: Hex }>({ method: 'eth_getTransactionByHash', params: [hash] })).input,
    );
  });

  it('verifies CREATE and CREATE2 children of a later call (a factory that logs nothing of them)', async () => {
    const { address: tracer } = await d.deploy('Tracer');
    const abi = new Interface(loadArtifact('Tracer').abi);
    const salt = `0x${'22'.repeat(32)}`;
    const data = abi.encodeFunctionData('run', [d.accounts[5], salt]) as Hex;
    const made2 = abi.decodeFunctionResult(
      'run',
      await k.request<Hex>({ method: 'eth_call', params: [{ to: tracer, data, value: '0x3' }, 'latest'] }),
    )[0] as Hex;
    await d.send({ to: tracer, value: 3n, data, gas: 1_000_000n });
    await settle();
    const child = await detail(made2);
    expect(child.is_verified).toBe(true);
    expect(child.name).toBe('Doomed');
  });
});
