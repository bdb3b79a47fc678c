/**
 * The typed inject helper for methods (issue #22, item 4): calls go through the dispatcher in an
 * envelope, as a transport's would, with method names, parameters and results typed by a method
 * map that plugins extend by declaration merging or by a map of their own. Expected values are
 * the chain's rules (chain id 31337, dev balances of 10,000 ether, JSON-RPC error codes).
 */
import {
  type Hex,
  type Kernel,
  type Plugin,
  type RpcMethods,
  balanceAt,
  createKernel,
  defineRpcMethod,
  definePlugin,
  injectMethod,
  methodCaller,
  toQuantity,
} from '@ashlar/core';
import { address, quantity, rpcPlugins } from '@ashlar/rpc';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { DEV_ACCOUNTS } from './helpers/contracts.js';

declare module '@ashlar/core' {
  interface RpcMethods {
    acme_double: { params: [n: Hex]; result: Hex };
  }
}

/** A map of a plugin's own, used without declaration merging. */
interface AcmeMethods {
  acme_balance: { params: [account: Hex]; result: { wei: Hex } };
}

const A = DEV_ACCOUNTS[0].address.toLowerCase() as Hex;
const B = DEV_ACCOUNTS[1].address.toLowerCase() as Hex;

const acme = definePlugin({
  name: 'acme',
  register: (ctx) =>
    ctx.addMethods(
      defineRpcMethod({
        name: 'acme_double',
        params: [quantity('n')],
        handler: (_c, [n]) => toQuantity(n * 2n),
      }),
      defineRpcMethod({
        name: 'acme_balance',
        params: [address('account')],
        handler: async (c, [account]) => ({ wei: toQuantity(await balanceAt(c.services.chain, account)) }),
      }),
    ),
}) as Plugin<unknown>;

let kernel: Kernel;
beforeAll(async () => {
  kernel = await createKernel({ plugins: [...rpcPlugins(), acme] });
});
afterAll(() => kernel.close());

describe('injectMethod', () => {
  it('answers built-in methods with typed results', async () => {
    const id = await injectMethod(kernel, 'eth_chainId');
    expectTypeOf(id).toEqualTypeOf<
      | { result: Hex; error?: undefined }
      | { result?: undefined; error: { code: number; message: string; data?: unknown } }
    >();
    expect(id).toEqual({ result: '0x7a69' });
    const balance = await injectMethod(kernel, 'eth_getBalance', [A, 'latest']);
    expect(balance.result).toBe(toQuantity(10n ** 22n));
    const sent = await injectMethod(kernel, 'eth_sendTransaction', [{ from: A, to: B, value: '0x2a' }]);
    const receipt = await injectMethod(kernel, 'eth_getTransactionReceipt', [sent.result as Hex]);
    expectTypeOf(receipt.result).toEqualTypeOf<RpcMethods['eth_getTransactionReceipt']['result'] | undefined>();
    expect(receipt.result?.status).toBe('0x1');
    expect(receipt.result?.to).toBe(B);
  });

  it('answers errors as a client sees them: the wire code and the parameter named', async () => {
    const bad = await injectMethod(kernel, 'eth_getBalance', ['0x12' as Hex]);
    expect(bad.result).toBeUndefined();
    expect(bad.error?.code).toBe(-32602);
    expect(bad.error?.message).toContain('address');
    // A plugin method added to the map by declaration merging, with its parser's error.
    expect(await injectMethod(kernel, 'acme_double', ['0x15'])).toEqual({ result: '0x2a' });
    const merged = await injectMethod(kernel, 'acme_double', ['0xzz']);
    expect(merged.error?.code).toBe(-32602);
    expect(merged.error?.message).toContain('(n)');
  });
});

describe('methodCaller', () => {
  it('calls methods of a map of its own and of the built-in map', async () => {
    const rpc = methodCaller<AcmeMethods & RpcMethods>(kernel);
    const mine = await rpc.call('acme_balance', [B]);
    expectTypeOf(mine).toEqualTypeOf<{ wei: Hex }>();
    expect(mine).toEqual({ wei: toQuantity(10n ** 22n + 42n) });
    expect(await rpc.call('eth_blockNumber')).toBe('0x1');
    expect(await rpc.call('net_version')).toBe('31337');
  });

  it('rejects with the wire code, message and data', async () => {
    const rpc = methodCaller(kernel);
    await expect(rpc.call('eth_getCode', ['0x12' as Hex, 'latest'])).rejects.toMatchObject({
      name: 'RpcRequestError',
      code: -32602,
    });
    const answer = await rpc.inject('evm_revert', ['0x99']);
    expect(answer.error).toBeUndefined();
    expect(answer.result).toBe(false);
  });
});
