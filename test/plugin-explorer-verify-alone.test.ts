/**
 * The explorer verifies and reads contracts through core's services, not JSON-RPC by name
 * (issue #22): a kernel with only the index and the explorer (no rpc plugin at all, so no
 * eth_getCode, eth_call or eth_getStorageAt) verifies a deployed Counter from standard JSON input,
 * then serves its detail, its read methods' current values and query-read-method through the
 * Executor, custom-error revert included. The contract is deployed through the kernel's own
 * TxService with a dev account's key; the compile is solc's (test/contracts/Counter.sol).
 */
import { createKernel, indexPlugin, type Kernel, type Plugin } from '@ashlar/core';
import { explorerPlugin } from '@ashlar/explorer';
import { getAddress, getCreateAddress, id, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSources } from './contracts/compile.js';
import { compile, solcLongVersion } from './helpers/buildInfo.js';
import { apiOk, type Body, type Hex } from './helpers/explorerChain.js';
import { apiPost } from './helpers/explorerPost.js';

const sel = (sig: string) => id(sig).slice(0, 10);
const OTHER = `0x${'77'.repeat(20)}`;

describe('the explorer without any rpc plugin', () => {
  let kernel: Kernel;
  let compiled: ReturnType<typeof compile>;
  let owner: string;
  let counter: Hex;

  beforeAll(async () => {
    compiled = compile({ 'Counter.sol': readSources()['Counter.sol'] });
    kernel = await createKernel({ plugins: [indexPlugin(), explorerPlugin()] as Plugin<unknown>[] });
    for (const m of ['eth_getCode', 'eth_call', 'eth_getStorageAt', 'eth_sendRawTransaction'])
      expect(kernel.methods.get(m)).toBeUndefined();
    // Deploy with a dev account, straight through the TxService (automine: mined before it answers).
    const { txs, chain } = kernel.services;
    const wallet = new Wallet(Buffer.from(chain.accounts[0].privateKey).toString('hex'));
    owner = wallet.address;
    const raw = await wallet.signTransaction({
      type: 2,
      chainId: chain.common.chainId(),
      nonce: 0,
      gasLimit: 1_000_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
      data: `0x${compiled.output.contracts['Counter.sol'].Counter.evm.bytecode.object}`,
    });
    const tx = txs.decodeRaw(Buffer.from(raw.slice(2), 'hex'));
    const result = await txs.submit(tx, txs.recoverSender(tx));
    expect(result.mined).toBe(true);
    expect(result.receipt?.status).toBe(1);
    counter = getCreateAddress({ from: owner, nonce: 0 }).toLowerCase() as Hex;
  });
  afterAll(() => kernel?.close());

  it('verifies the contract from standard JSON input', async () => {
    const res = await apiPost(kernel, `/api/v2/smart-contracts/${counter}/verification/via/standard-input`, {
      compiler_version: `v${solcLongVersion()}`,
      contract_name: 'Counter.sol:Counter',
      files: { 'input.json': JSON.stringify(compiled.input) },
    });
    expect(res).toEqual({
      status: 200,
      body: { message: 'Smart-contract verified', is_fully_verified: true, is_partially_verified: false },
    });
    const detail: Body = await apiOk(kernel, `/api/v2/smart-contracts/${counter}`);
    expect(detail.is_verified).toBe(true);
    expect(detail.name).toBe('Counter');
    // the runtime code, read from the chain's state (the owner immutable is in it)
    expect(detail.deployed_bytecode).toMatch(/^0x[0-9a-f]+$/);
    expect(detail.deployed_bytecode).toContain(owner.slice(2).toLowerCase());
  });

  it('reads the verified contract: read methods with values and query-read-method through the Executor', async () => {
    const read: Body[] = await apiOk(kernel, `/api/v2/smart-contracts/${counter}/methods-read`);
    const byName = Object.fromEntries(read.map((m) => [m.name, m]));
    expect(byName.count.outputs[0].value).toBe('0');
    expect(byName.owner.outputs[0].value).toBe(getAddress(owner));

    const q = (body: Record<string, unknown>) =>
      apiPost(kernel, `/api/v2/smart-contracts/${counter}/query-read-method`, body);
    expect((await q({ method_id: sel('guarded()'), args: [], from: owner })).body).toEqual([
      { is_error: false, result: { names: ['bool'], output: [{ type: 'bool', value: 'true' }] } },
    ]);
    const revert = (await q({ method_id: sel('guarded()'), args: [], from: OTHER })).body[0];
    expect(revert.is_error).toBe(true);
    expect(revert.result.method_call).toBe('NotOwner(address who)');
    expect(revert.result.parameters).toEqual([{ name: 'who', type: 'address', value: getAddress(OTHER) }]);
  });
});
