/**
 * Typed services (issue #22): a plugin's register(ctx) and every method handler get the kernel's
 * KernelServices as ctx.services, the same object the Kernel exposes as kernel.services, and no
 * Kernel. Optional services (index, dev) are undefined until a plugin installs them; a plugin's
 * own token is found through resolve/find; after close a service read fails as
 * ASHLAR_ERR_KERNEL_CLOSED.
 */
import {
  createKernel,
  definePlugin,
  defineRpcMethod,
  indexPlugin,
  type KernelServices,
  type Plugin,
  type RpcContext,
  token,
} from '@ashlar/core';
import { devPlugin, evmMiningPlugin } from '@ashlar/rpc';
import { describe, expect, expectTypeOf, it } from 'vitest';

const Notes = token<{ count: number }>('acme:notes');

/** A plugin that records what it saw while registering and in its handler. */
function probe() {
  const seen: { registered?: KernelServices; handled?: RpcContext } = {};
  const plugin = definePlugin({
    name: 'acme',
    register(ctx) {
      seen.registered = ctx.services;
      ctx.provide(Notes, () => ({ count: 3 }));
      ctx.addMethods(
        defineRpcMethod({
          name: 'acme_probe',
          params: [],
          handler: (c) => {
            seen.handled = c;
            return {
              head: c.services.chain.head.number.toString(),
              notes: c.services.resolve(Notes).count,
              index: c.services.index !== undefined,
              dev: c.services.dev !== undefined,
            };
          },
        }),
      );
    },
  });
  return { plugin, seen };
}

describe('ctx.services', () => {
  it('is one typed object per kernel: in register, in handlers and as kernel.services, with no Kernel', async () => {
    const { plugin, seen } = probe();
    const kernel = await createKernel({ plugins: [plugin] as Plugin<unknown>[] });
    try {
      expect(await kernel.request({ method: 'acme_probe' })).toEqual({ head: '0', notes: 3, index: false, dev: false });
      expect(seen.registered).toBe(kernel.services);
      expect(seen.handled?.services).toBe(kernel.services);
      expect(Object.keys(seen.handled ?? {})).not.toContain('kernel');
      const s = kernel.services;
      expect(s.chain).toBe(kernel.chain);
      expect(s.mempool).toBe(kernel.mempool);
      expect(s.miner).toBe(kernel.miner);
      expect(s.txs).toBe(kernel.txs);
      expect(s.executor).toBe(kernel.executor);
      expect(s.events).toBe(kernel.events);
      expect(s.options).toBe(kernel.options);
      expect(s.find(Notes)).toEqual({ count: 3 });
      expect(s.find(token('acme:missing'))).toBeUndefined();
      expect(() => s.resolve(token('acme:missing'))).toThrow(/service "acme:missing" is not registered in this kernel/);
      // the types a handler sees
      expectTypeOf<RpcContext>().toHaveProperty('services').toEqualTypeOf<KernelServices>();
      expectTypeOf<RpcContext>().not.toHaveProperty('kernel');
    } finally {
      await kernel.close();
    }
  });

  it('index and dev appear once their plugins are mounted; each kernel has its own', async () => {
    const { plugin } = probe();
    const a = await createKernel({
      chain: { chainId: 1001 },
      plugins: [indexPlugin(), evmMiningPlugin, devPlugin, plugin] as Plugin<unknown>[],
    });
    const b = await createKernel({ chain: { chainId: 1002 }, plugins: [probe().plugin] as Plugin<unknown>[] });
    try {
      expect(await a.request({ method: 'acme_probe' })).toEqual({ head: '0', notes: 3, index: true, dev: true });
      expect(a.services.index?.queries).toBeDefined();
      expect(a.services.dev?.snapshots).toBeDefined();
      expect(b.services).not.toBe(a.services);
      expect(b.services.chain.settings.chainId).toBe(1002n);
      expect(a.services.chain.settings.chainId).toBe(1001n);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('after close, reading a service fails as ASHLAR_ERR_KERNEL_CLOSED', async () => {
    const kernel = await createKernel();
    const s = kernel.services;
    await kernel.close();
    expect(() => s.chain).toThrow(expect.objectContaining({ code: 'ASHLAR_ERR_KERNEL_CLOSED' }));
  });
});
