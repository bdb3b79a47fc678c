/**
 * Replaceable services (issue #22, item 5): the kernel's services are factories under typed
 * tokens in a child container per kernel, and a plugin replaces one with ctx.provide before
 * anything uses it. Two kernels in one process never share a replacement.
 */
import {
  type Kernel,
  MempoolService,
  type PendingTx,
  type Plugin,
  RpcRequestError,
  Tokens,
  createKernel,
  definePlugin,
} from '@ashlar/core';
import { rpcPlugins } from '@ashlar/rpc';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from './helpers/contracts.js';

const [A, B, C] = DEV_ACCOUNTS.map((a) => a.address.toLowerCase());

const open: Kernel[] = [];
async function kernelWith(...first: Plugin<unknown>[]): Promise<Kernel> {
  const k = await createKernel({ plugins: [...first, ...rpcPlugins()] });
  open.push(k);
  return k;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((k) => k.close()));
});

/** A mempool admission policy: transactions to `blocked` never enter the pool. */
class BlocklistMempool extends MempoolService {
  constructor(private readonly blocked: string) {
    super();
  }
  override add(ptx: PendingTx): PendingTx | undefined {
    if (ptx.tx.to?.toString() === this.blocked)
      throw new RpcRequestError(
        -32003,
        `transactions to ${this.blocked} are not accepted`,
        undefined,
        'ACME_ERR_BLOCKED',
      );
    return super.add(ptx);
  }
}

const blocklist = (blocked: string) =>
  definePlugin({
    name: 'acme:blocklist',
    register: (ctx) => ctx.provide(Tokens.mempool, () => new BlocklistMempool(blocked)),
  }) as Plugin<unknown>;

const send = (k: Kernel, to: string) =>
  k.request<string>({ method: 'eth_sendTransaction', params: [{ from: A, to, value: '0x1' }] });

describe('replacing a kernel service', () => {
  it('a mempool policy rejects transactions to one address, in its kernel only', async () => {
    const guarded = await kernelWith(blocklist(B));
    const plain = await kernelWith();
    expect(guarded.services.mempool).toBeInstanceOf(BlocklistMempool);
    await expect(send(guarded, B)).rejects.toMatchObject({
      code: -32003,
      message: `transactions to ${B} are not accepted`,
      ashlarCode: 'ACME_ERR_BLOCKED',
    });
    expect(guarded.services.chain.head.number).toBe(0n);
    // Another address goes through the replacement's super.add and is mined (automine).
    expect(await send(guarded, C)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(guarded.services.chain.head.number).toBe(1n);
    // The other kernel in this process has the kernel's own mempool.
    expect(plain.services.mempool).not.toBeInstanceOf(BlocklistMempool);
    expect(await send(plain, B)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(plain.services.chain.head.number).toBe(1n);
  });

  it('an Executor wrapper built on previous() sees every eth_call, and only its kernel’s', async () => {
    let calls = 0;
    const counting = definePlugin({
      name: 'acme:counting-executor',
      register: (ctx) =>
        ctx.provide(Tokens.executor, (_c, previous) => {
          // As docs/plugins.md shows it: the kernel's Executor, its call counted.
          const executor = previous();
          const call = executor.call.bind(executor);
          executor.call = (...args) => {
            calls++;
            return call(...args);
          };
          return executor;
        }),
    }) as Plugin<unknown>;
    const counted = await kernelWith(counting);
    const other = await kernelWith();
    const call = { from: A, to: B, data: '0x' };
    expect(await counted.request({ method: 'eth_call', params: [call, 'latest'] })).toBe('0x');
    expect(await counted.request({ method: 'eth_call', params: [call, 'latest'] })).toBe('0x');
    expect(calls).toBe(2);
    expect(await other.request({ method: 'eth_call', params: [call, 'latest'] })).toBe('0x');
    expect(calls).toBe(2);
  });

  it('replacing a service a plugin before it already used fails, naming both', async () => {
    const user = definePlugin({
      name: 'acme:user',
      register: (ctx) => {
        ctx.services.mempool.size;
      },
    }) as Plugin<unknown>;
    const late = blocklist(B);
    const err = await createKernel({ plugins: [user, late] }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'ASHLAR_ERR_PLUGIN_SERVICE_IN_USE',
      message:
        'plugin "acme:blocklist" replaces service "ashlar:mempool", which plugin "acme:user" already uses: mount "acme:blocklist" before the plugins that use "ashlar:mempool"',
    });
  });

  it('the kernel’s inputs (the chain, options, storage, events) are not replaceable', async () => {
    const swap = definePlugin({
      name: 'acme:swap-chain',
      register: (ctx) => ctx.provide(Tokens.chain, (_c, previous) => previous()),
    }) as Plugin<unknown>;
    await expect(createKernel({ plugins: [swap] })).rejects.toMatchObject({
      code: 'ASHLAR_ERR_PLUGIN_SERVICE_IN_USE',
      message:
        'plugin "acme:swap-chain" replaces service "ashlar:chain", which the kernel opened before any plugin: set it with createKernel\'s options instead',
    });
  });

  it('each kernel has its own container: a plugin service is not seen by another kernel', async () => {
    const k1 = await kernelWith(blocklist(B));
    const k2 = await kernelWith(blocklist(C));
    expect(k1.container).not.toBe(k2.container);
    expect(k1.services.mempool).not.toBe(k2.services.mempool);
    await expect(send(k1, B)).rejects.toMatchObject({ code: -32003 });
    expect(await send(k1, C)).toMatch(/^0x/);
    await expect(send(k2, C)).rejects.toMatchObject({ code: -32003 });
    expect(await send(k2, B)).toMatch(/^0x/);
  });
});
