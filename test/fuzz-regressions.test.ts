// What test/fuzz-inputs.test.ts found, pinned: each answered -32603 or 500 before its fix.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createNode } from 'ashlar';

let kernel: Awaited<ReturnType<typeof createNode>>;
beforeEach(async () => {
  kernel = await createNode({ chain: { hardfork: 'prague' } });
});
afterEach(() => kernel.close());

const outcome = (method: string, params: unknown[]) =>
  kernel.request({ method, params }).then(
    (result) => ({ result }),
    (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
  );

it('hardhat_mine refuses runs past block number or timestamp 2^64-1 as bad params', async () => {
  // "Maximum HF determined by block number is lower than timestamp HF" (-32603) before.
  expect(await outcome('hardhat_mine', ['0xfffffffffffffffe'])).toMatchObject({
    code: -32602,
    message: expect.stringMatching(/^invalid argument 0 \(blocks\)/),
  });
  expect(await outcome('hardhat_mine', ['0x10', '0xffffffffffffffff'])).toMatchObject({
    code: -32602,
    message: expect.stringMatching(/^invalid argument 1 \(interval\)/),
  });
  // Answered true and reserved blocks numbered past uint64 before.
  expect(await outcome('hardhat_mine', [`0x${(2n ** 70n).toString(16)}`])).toMatchObject({ code: -32602 });
  expect(await outcome('eth_blockNumber', [])).toEqual({ result: '0x0' });
  expect(await outcome('hardhat_mine', ['0x100', '0x100'])).toEqual({ result: true });
});

it('evm_mine, evm_setNextBlockTimestamp and evm_increaseTime refuse times past 2^64-1, and mining goes on', async () => {
  const past = `0x${(2n ** 64n).toString(16)}`;
  expect(await outcome('evm_mine', [past])).toMatchObject({
    code: -32602,
    message: expect.stringContaining('timestamp'),
  });
  expect(await outcome('evm_setNextBlockTimestamp', [past])).toMatchObject({ code: -32602 });
  expect(await outcome('evm_increaseTime', [`0x${(2n ** 64n - 10n).toString(16)}`])).toMatchObject({ code: -32602 });
  expect(await outcome('evm_mine', [])).toEqual({ result: '0x0' });
});

it('the explorer serves blocks whose timestamps lie past JS Date (year 275760)', async () => {
  // isoTime threw RangeError: /api/v2/stats and block pages answered 500.
  expect(await outcome('evm_mine', [`0x${(2n ** 63n).toString(16)}`])).toEqual({ result: '0x0' });
  const stats = kernel.routes.lookup('GET', '/api/v2/stats');
  const res = await stats!.handler({
    method: 'GET',
    path: '/api/v2/stats',
    params: stats!.params,
    query: new URLSearchParams(),
  });
  expect(res.status).toBe(200);
  expect((res.body as { gas_price_updated_at: string }).gas_price_updated_at).toBe('+275760-09-13T00:00:00.000000Z');
});
