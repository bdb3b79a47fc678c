import { type Kernel, createKernel } from '@ashlar/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rpcPlugins } from '../index.js';

let k: Kernel;
const rpc = <T = unknown>(method: string, params: unknown[] = []) => k.request<T>({ method, params });
const head = async () => {
  const b = await rpc<{ number: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
  return { number: Number(b.number), timestamp: Number(b.timestamp) };
};

beforeEach(async () => {
  k = await createKernel({ plugins: rpcPlugins() });
});
afterEach(() => {
  k.miner.stop();
  return k.close();
});

describe("evm_mine's argument, in Hardhat's and Anvil's shapes", () => {
  it('a timestamp as a number, hex, decimal string or { timestamp }', async () => {
    const t = (await head()).timestamp + 1000;
    for (const [i, arg] of [t, `0x${(t + 1).toString(16)}`, String(t + 2), { timestamp: t + 3 }].entries()) {
      expect(await rpc('evm_mine', [arg])).toBe('0x0');
      expect((await head()).timestamp).toBe(t + i);
    }
    await rpc('evm_mine', [null]);
    expect((await head()).timestamp).toBeGreaterThan(t + 3);
  });

  it('{ timestamp, blocks } mines that many blocks, the first at the timestamp (Anvil); blocks 0 mines none', async () => {
    const start = await head();
    await rpc('evm_mine', [{ timestamp: start.timestamp + 500, blocks: 4 }]);
    const end = await head();
    expect(end.number).toBe(start.number + 4);
    const first = await rpc<{ timestamp: string }>('eth_getBlockByNumber', [
      `0x${(start.number + 1).toString(16)}`,
      false,
    ]);
    expect(Number(first.timestamp)).toBe(start.timestamp + 500);
    await rpc('evm_mine', [{ blocks: 0 }]);
    expect((await head()).number).toBe(end.number);
    await rpc('evm_mine', [{ blocks: '0x2' }]);
    expect((await head()).number).toBe(end.number + 2);
  });

  it('refuses runs past block number or timestamp 2^64-1, and shapes that are no time (-32602 naming the argument)', async () => {
    await expect(rpc('evm_mine', [{ blocks: `0x${(2n ** 64n - 1n).toString(16)}` }])).rejects.toMatchObject({
      code: -32602,
      message: /^invalid argument 0 \(timestamp\): field "blocks": .*block number 2\^64-1/,
    });
    const t = 2n ** 64n - 10n;
    await expect(rpc('evm_mine', [{ timestamp: `0x${t.toString(16)}`, blocks: 20 }])).rejects.toMatchObject({
      code: -32602,
      message: /timestamp 2\^64-1/,
    });
    await expect(rpc('evm_mine', ['soon'])).rejects.toMatchObject({
      code: -32602,
      message: /^invalid argument 0 \(timestamp\): /,
    });
    await expect(rpc('evm_mine', [{ timestamp: 'soon' }])).rejects.toMatchObject({
      code: -32602,
      message: /^invalid argument 0 \(timestamp\): field "timestamp": /,
    });
    await expect(rpc('evm_mine', [true])).rejects.toMatchObject({ code: -32602 });
    expect(await rpc('evm_mine')).toBe('0x0');
  });
});
