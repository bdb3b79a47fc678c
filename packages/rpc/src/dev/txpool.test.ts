import { type Kernel, createKernel } from '@ashlar/core';
import { toChecksumAddress } from '@ethereumjs/util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';

let k: Kernel;
const rpc = <T = unknown>(method: string, params: unknown[] = []) => k.request<T>({ method, params });
const TO = '0x00000000000000000000000000000000000000dd';
const A = () => k.chain.accounts[0].address.toString();

beforeEach(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
  await rpc('evm_setAutomine', [false]);
});
afterEach(() => k.close());

/** Two executable transactions (nonces 0, 1) and one behind a gap (nonce 3). */
async function fillPool(): Promise<string[]> {
  const send = (nonce: string) =>
    rpc<string>('eth_sendTransaction', [
      { from: A(), to: TO, value: '0x1', nonce, gas: '0x5208', gasPrice: '0x3b9aca00', type: '0x0' },
    ]);
  return [await send('0x0'), await send('0x1'), await send('0x3')];
}

describe('txpool_status / txpool_content / txpool_inspect', () => {
  it('counts pending and queued transactions', async () => {
    expect(await rpc('txpool_status')).toEqual({ pending: '0x0', queued: '0x0' });
    await fillPool();
    expect(await rpc('txpool_status')).toEqual({ pending: '0x2', queued: '0x1' });
  });

  it('lists transactions by sender and decimal nonce, in their RPC shape', async () => {
    const [h0, h1, h3] = await fillPool();
    const content = await rpc<{
      pending: Record<string, Record<string, { hash: string; blockHash: null; from: string }>>;
      queued: Record<string, Record<string, { hash: string }>>;
    }>('txpool_content');
    const sender = toChecksumAddress(A());
    expect(Object.keys(content.pending[sender])).toEqual(['0', '1']);
    expect(content.pending[sender]['0']).toMatchObject({ hash: h0, blockHash: null, from: A() });
    expect(content.pending[sender]['1'].hash).toBe(h1);
    expect(content.queued[sender]['3'].hash).toBe(h3);
  });

  it('summarises each transaction as geth does', async () => {
    await fillPool();
    const inspect = await rpc<{ pending: Record<string, Record<string, string>> }>('txpool_inspect');
    expect(inspect.pending[toChecksumAddress(A())]['0']).toBe(
      `${toChecksumAddress(TO)}: 1 wei + 21000 gas × 1000000000 wei`,
    );
  });

  it('names contract creations', async () => {
    await rpc('eth_sendTransaction', [{ from: A(), data: '0x00', gas: '0x10000' }]);
    const inspect = await rpc<{ pending: Record<string, Record<string, string>> }>('txpool_inspect');
    expect(inspect.pending[toChecksumAddress(A())]['0']).toMatch(/^contract creation: 0 wei \+ 65536 gas × \d+ wei$/);
  });
});

describe('hardhat_dropTransaction / anvil_dropTransaction', () => {
  it('drops a pooled transaction and answers true; false for an unknown one', async () => {
    const [h0] = await fillPool();
    expect(await rpc('hardhat_dropTransaction', [h0])).toBe(true);
    expect(await rpc('eth_getTransactionByHash', [h0])).toBeNull();
    expect(await rpc('anvil_dropTransaction', [h0])).toBe(false);
    expect(await rpc('txpool_status')).toEqual({ pending: '0x0', queued: '0x2' });
  });

  it('refuses to drop a mined transaction (-32602 naming it)', async () => {
    const [h0] = await fillPool();
    await rpc('evm_mine');
    await expect(rpc('hardhat_dropTransaction', [h0])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/argument 0 \(hash\).*already mined/),
    });
  });

  it('rejects a malformed hash (-32602 naming it)', async () => {
    await expect(rpc('hardhat_dropTransaction', ['0x12'])).rejects.toMatchObject({ code: -32602, message: /hash/ });
  });
});
