import Module from 'node:module';
import { describe, expect, it } from 'vitest';

// Node's CommonJS cache (solc is CommonJS; importing it from ESM fills the same cache).
const solcModulesLoaded = () =>
  Object.keys((Module as unknown as { _cache: Record<string, unknown> })._cache).filter((k) =>
    /[\\/]node_modules[\\/]solc[\\/]/.test(k),
  ).length;

describe('solc is loaded only when a verification compiles', () => {
  it('importing the explorer leaves it unloaded; the first loadSolc imports it', async () => {
    const explorer = await import('../index.js');
    expect(explorer).toBeDefined();
    expect(solcModulesLoaded()).toBe(0);
    const { installedSolc, loadSolc } = await import('./solc.js');
    const solc = await installedSolc();
    expect(solcModulesLoaded()).toBeGreaterThan(0);
    expect(solc).toBeDefined();
    expect(await loadSolc(solc?.version() ?? '')).toBe(solc);
  });
});
