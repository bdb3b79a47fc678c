import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import type { Plugin } from './definePlugin.js';

/**
 * Checks the whole plugin set before any plugin runs (duplicate names, missing dependencies,
 * cycles) and returns a deterministic topological order: input order among unrelated plugins.
 */
export function orderPlugins(plugins: readonly Plugin<unknown>[]): Plugin<unknown>[] {
  const byName = new Map<string, Plugin<unknown>>();
  for (const p of plugins) {
    if (byName.has(p.name)) throw new AshlarError(ErrorCodes.PLUGIN_DUPLICATE, `two plugins are named "${p.name}"`);
    byName.set(p.name, p);
  }
  const missing: string[] = [];
  for (const p of plugins) {
    for (const d of p.dependencies ?? []) if (!byName.has(d)) missing.push(`"${p.name}" needs "${d}"`);
  }
  if (missing.length > 0) {
    throw new AshlarError(ErrorCodes.PLUGIN_MISSING_DEPENDENCY, `missing plugin dependencies: ${missing.join('; ')}`);
  }
  const out: Plugin<unknown>[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: Plugin<unknown>, path: string[]): void => {
    const s = state.get(p.name);
    if (s === 'done') return;
    if (s === 'visiting') {
      throw new AshlarError(ErrorCodes.PLUGIN_CYCLE, `plugin dependency cycle: ${[...path, p.name].join(' -> ')}`);
    }
    state.set(p.name, 'visiting');
    for (const d of p.dependencies ?? []) visit(byName.get(d) as Plugin<unknown>, [...path, p.name]);
    state.set(p.name, 'done');
    out.push(p);
  };
  for (const p of plugins) visit(p, []);
  return out;
}
