import { type Token, token } from '../di/container.js';
import type { PluginContext } from '../kernel/definePlugin.js';
import type { Kernel } from '../kernel/Kernel.js';
import { type IndexOptions, IndexService } from './IndexService.js';

export const IndexTokens = {
  index: token<IndexService>('ashlar:index'),
} satisfies Record<string, Token<unknown>>;

/**
 * The kernel's IndexService, created (and brought up to the head) on first call: a plugin that
 * reads the index — the explorer — installs it in its `register`. A node without such a plugin
 * pays nothing for it.
 */
export async function installIndex(ctx: PluginContext, options: IndexOptions = {}): Promise<IndexService> {
  if (ctx.container.isRegistered(IndexTokens.index, true)) return ctx.resolve(IndexTokens.index);
  const k = ctx.kernel;
  const svc = await IndexService.attach(k.chain, ctx.events, ctx.logger, options);
  ctx.provide(IndexTokens.index, () => svc);
  return svc;
}

/** The kernel's index, or undefined when no plugin installed it. */
export function indexOf(kernel: Kernel): IndexService | undefined {
  return kernel.container.isRegistered(IndexTokens.index, true) ? kernel.resolve(IndexTokens.index) : undefined;
}
