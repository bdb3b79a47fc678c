import { describe, expect, it } from 'vitest';
import { installedSolc, loadSolc, normalizeVersion, versionMatches } from './solc.js';

describe('compiler versions', () => {
  it("normalizes solc-js's and Blockscout's spellings", () => {
    expect(normalizeVersion('0.8.37+commit.f401782d.Emscripten.clang')).toBe('0.8.37+commit.f401782d');
    expect(normalizeVersion('v0.8.37+commit.f401782d')).toBe('0.8.37+commit.f401782d');
    expect(normalizeVersion('0.8.19')).toBe('0.8.19');
    expect(normalizeVersion('v0.8.20-nightly.2023.5.1+commit.deadbeef')).toBe('0.8.20+commit.deadbeef');
  });

  it('matches a bare version to any commit of it, a commit only to itself', () => {
    expect(versionMatches('0.8.37', '0.8.37+commit.f401782d.Emscripten.clang')).toBe(true);
    expect(versionMatches('v0.8.37+commit.f401782d', '0.8.37+commit.f401782d.Emscripten.clang')).toBe(true);
    expect(versionMatches('v0.8.37+commit.00000000', '0.8.37+commit.f401782d.Emscripten.clang')).toBe(false);
    expect(versionMatches('0.8.3', '0.8.37+commit.f401782d')).toBe(false);
  });
});

describe('loadSolc', () => {
  it('loads the installed compiler for its own version, a plugged-in one for others, and names a missing one', async () => {
    const own = await installedSolc();
    expect(own).toBeDefined();
    const v = own?.version() ?? '';
    expect(await loadSolc(`v${normalizeVersion(v)}`)).toBe(own);
    const fake = { version: () => '0.8.19+commit.7dd6d404.Emscripten.clang', compile: () => '{}' };
    expect(await loadSolc('v0.8.19+commit.7dd6d404', (asked) => (asked.startsWith('v0.8.19') ? fake : undefined))).toBe(
      fake,
    );
    await expect(loadSolc('v0.8.19+commit.7dd6d404')).rejects.toThrow(
      `compiler version v0.8.19+commit.7dd6d404 is not available: this node has solc v${normalizeVersion(v)}`,
    );
  });
});
