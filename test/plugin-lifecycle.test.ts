/**
 * Plugin close hooks (issue #22): close(ctx) runs in reverse registration order with the
 * context the plugin registered with, so one plugin object mounted on two kernels knows which
 * one is closing; a failed start closes only the plugins whose register ran.
 */
import { createKernel, definePlugin, type KernelServices, type Plugin, type PluginContext, token } from '@ashlar/core';
import { describe, expect, it } from 'vitest';

const Counter = token<{ name: string; closed: boolean }>('acme:counter');

describe('plugin close hooks', () => {
  it('one plugin object on two kernels: each close gets its own kernel and service', async () => {
    const closedWith: { services: KernelServices; service: { name: string; closed: boolean } }[] = [];
    const shared = definePlugin({
      name: 'acme-shared',
      register(ctx) {
        const service = { name: `for chain ${ctx.options.chain.chainId}`, closed: false };
        ctx.provide(Counter, () => service);
      },
      close(ctx: PluginContext) {
        const service = ctx.resolve(Counter);
        service.closed = true;
        closedWith.push({ services: ctx.services, service });
      },
    });
    const a = await createKernel({ chain: { chainId: 1001 }, plugins: [shared] });
    const b = await createKernel({ chain: { chainId: 1002 }, plugins: [shared] });
    await b.close();
    expect(closedWith.map((c) => [c.services === b.services, c.service.name])).toEqual([[true, 'for chain 1002']]);
    expect(a.resolve(Counter).closed).toBe(false);
    await a.close();
    expect(closedWith.map((c) => [c.services === a.services, c.service.name])[1]).toEqual([true, 'for chain 1001']);
  });

  it('closes in reverse registration order, and after a failed start only what started', async () => {
    const log: string[] = [];
    const recorder = (name: string, dependencies: string[] = []): Plugin<unknown> =>
      definePlugin({
        name,
        dependencies,
        register: () => void log.push(`register ${name}`),
        close: () => void log.push(`close ${name}`),
      }) as Plugin<unknown>;
    const k = await createKernel({ plugins: [recorder('b', ['a']), recorder('a')] });
    // The 'close' event cannot pre-empt the hooks' order: it fires after the last of them.
    k.events.once('close', () => void log.push('close event'));
    await k.close();
    expect(log).toEqual(['register a', 'register b', 'close b', 'close a', 'close event']);

    log.length = 0;
    const failing = definePlugin({
      name: 'fails',
      register() {
        throw new Error('cannot start');
      },
      close: () => void log.push('close fails'),
    }) as Plugin<unknown>;
    await expect(createKernel({ plugins: [recorder('first'), failing, recorder('never')] })).rejects.toThrow(
      'cannot start',
    );
    expect(log).toEqual(['register first', 'close fails', 'close first']);
  });
});
