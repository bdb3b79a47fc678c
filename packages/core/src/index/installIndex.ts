import type { PluginContext } from '../kernel/definePlugin.js';
import type { KernelServices } from '../kernel/services.js';
import { type IndexOptions, IndexService } from './IndexService.js';
import { IndexTokens } from './IndexTokens.js';
import { Tokens } from '../kernel/tokens.js';

export { IndexTokens };

/**
 * The kernel's IndexService, created (and brought up to the head) on first call: a plugin that
 * reads the index — the explorer — installs it in its `register`. A node without such a plugin
 * pays nothing for it.
 */
export async function installIndex(ctx: PluginContext, options: IndexOptions = {}): Promise<IndexService> {
  if (ctx.container.isRegistered(IndexTokens.index, true)) return ctx.resolve(IndexTokens.index);
  const svc = await IndexService.attach(
    ctx.services.chain,
    ctx.events,
    ctx.logger,
    options,
    ctx.resolve(Tokens.activity),
  );
  ctx.provide(IndexTokens.index, () => svc);
  return svc;
}

/** The kernel's index, or undefined when no plugin installed it (the same as `services.index`). */
export function indexOf(from: { readonly services: KernelServices } | KernelServices): IndexService | undefined {
  return ('services' in from ? from.services : from).index;
}
