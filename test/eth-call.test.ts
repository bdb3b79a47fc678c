import { createNode } from 'ashlar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArtifact } from './helpers/contracts.js';

type Kernel = Awaited<ReturnType<typeof createNode>>;

// count() and increment() of test/contracts/Counter.sol
const COUNT = '0x06661abd';
const INCREMENT = '0xd09de08a';
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;

describe('eth_call and eth_estimateGas', () => {
  let k: Kernel;
  let a0: string;
  let counter: string;
  let deployedAt: string;

  beforeAll(async () => {
    k = await createNode();
    a0 = k.chain.accounts[0].address.toString();
    const hash = await k.request<string>({
      method: 'eth_sendTransaction',
      params: [{ from: a0, data: loadArtifact('Counter').bytecode, gas: '0x300000' }],
    });
    const receipt = await k.request<{ contractAddress: string; blockNumber: string }>({
      method: 'eth_getTransactionReceipt',
      params: [hash],
    });
    counter = receipt.contractAddress;
    deployedAt = receipt.blockNumber;
    for (let i = 0; i < 3; i++) {
      await k.request({
        method: 'eth_sendTransaction',
        params: [{ from: a0, to: counter, data: INCREMENT, gas: '0x30000' }],
      });
    }
  });
  afterAll(() => k.close());

  it('reads state at the block asked for', async () => {
    expect(await k.request({ method: 'eth_call', params: [{ to: counter, data: COUNT }, 'latest'] })).toBe(word(3n));
    expect(await k.request({ method: 'eth_call', params: [{ to: counter, data: COUNT }, deployedAt] })).toBe(word(0n));
    const afterFirst = `0x${(BigInt(deployedAt) + 1n).toString(16)}`;
    expect(await k.request({ method: 'eth_call', params: [{ to: counter, data: COUNT }, afterFirst] })).toBe(word(1n));
  });

  it('applies state overrides: stateDiff, state, code and balance', async () => {
    // count is storage slot 0 (after no other state variables in Counter)
    const slot0 = word(0n);
    const diff = { [counter]: { stateDiff: { [slot0]: word(42n) } } };
    expect(await k.request({ method: 'eth_call', params: [{ to: counter, data: COUNT }, 'latest', diff] })).toBe(
      word(42n),
    );
    const replaced = { [counter]: { state: {} } };
    // an empty `state` wipes the storage: count reads 0 (owner, an immutable, lives in the code)
    expect(await k.request({ method: 'eth_call', params: [{ to: counter, data: COUNT }, 'latest', replaced] })).toBe(
      word(0n),
    );
    // code override: an account with no code returns 7 from any call (PUSH1 7 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN)
    const empty = '0x00000000000000000000000000000000000000aa';
    const code = { [empty]: { code: '0x600760005260206000f3' } };
    expect(await k.request({ method: 'eth_call', params: [{ to: empty, data: '0x' }, 'latest', code] })).toBe(word(7n));
    // balance override: SELFBALANCE (0x47) of the overridden account
    const bal = { [empty]: { code: '0x4760005260206000f3', balance: '0x1234' } };
    expect(await k.request({ method: 'eth_call', params: [{ to: empty, data: '0x' }, 'latest', bal] })).toBe(
      word(0x1234n),
    );
    // overrides never stick
    expect(await k.request({ method: 'eth_call', params: [{ to: counter, data: COUNT }, 'latest'] })).toBe(word(3n));
  });

  it('rejects state and stateDiff together with -32602', async () => {
    const both = { [counter]: { state: {}, stateDiff: {} } };
    await expect(
      k.request({ method: 'eth_call', params: [{ to: counter, data: COUNT }, 'latest', both] }),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('answers eth_call for a block that does not exist with an error, not a result', async () => {
    await expect(
      k.request({ method: 'eth_call', params: [{ to: counter, data: COUNT }, '0x999'] }),
    ).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(/header not found/),
    });
  });

  it('estimates exactly 21000 for a plain transfer', async () => {
    const to = k.chain.accounts[1].address.toString();
    expect(await k.request({ method: 'eth_estimateGas', params: [{ from: a0, to, value: '0x1' }] })).toBe('0x5208');
  });

  it('estimates the least gas with which the call succeeds', async () => {
    const est = BigInt(
      await k.request<string>({ method: 'eth_estimateGas', params: [{ from: a0, to: counter, data: INCREMENT }] }),
    );
    const gas = (n: bigint) => `0x${n.toString(16)}`;
    // with the estimate it succeeds, with one less it runs out of gas (checked by eth_call at that gas)
    await expect(
      k.request({ method: 'eth_call', params: [{ from: a0, to: counter, data: INCREMENT, gas: gas(est) }] }),
    ).resolves.toBe('0x');
    await expect(
      k.request({ method: 'eth_call', params: [{ from: a0, to: counter, data: INCREMENT, gas: gas(est - 1n) }] }),
    ).rejects.toMatchObject({ code: -32000 });
  });
});
