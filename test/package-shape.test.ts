/**
 * What every published package ships (#22): dist only, with README, repository and engines, and
 * a package.json whose exports carry no `@ashlar/source` condition (it points at src, which the
 * tarball does not have). The file list is npm's own (`npm pack --dry-run --ignore-scripts`, so
 * nothing is built or rewritten here); the condition is stripped by scripts/pack-manifest.mjs,
 * run here on a copy of a manifest.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packageDirs = readdirSync(join(root, 'packages'));

interface Manifest {
  name: string;
  private?: boolean;
  repository?: { type: string; url: string; directory: string };
  engines?: { node: string };
  files?: string[];
  scripts?: Record<string, string>;
  exports: Record<string, Record<string, string>>;
}

const manifestOf = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest;

const published = packageDirs.filter((dir) => manifestOf(dir).private !== true);

function exportTargets(exports: unknown, skip: string): string[] {
  if (typeof exports === 'string') return [exports];
  if (typeof exports !== 'object' || exports === null) return [];
  return Object.entries(exports).flatMap(([key, value]) => (key === skip ? [] : exportTargets(value, skip)));
}

describe.each(published)('packages/%s', (dir) => {
  const manifest = manifestOf(dir);

  it('declares repository, engines and a dist-only files list, and has a README', () => {
    expect(manifest.repository).toMatchObject({ type: 'git', directory: `packages/${dir}` });
    expect(manifest.engines).toEqual({ node: '>=20.10' });
    expect(manifest.files?.filter((f) => !f.startsWith('!'))).toEqual(['dist']);
    expect(readFileSync(join(root, 'packages', dir, 'README.md'), 'utf8')).toMatch(/^# /);
    expect(manifest.scripts?.prepack).toMatch(/pack-manifest\.mjs strip$/);
    expect(manifest.scripts?.postpack).toBe('node ../../scripts/pack-manifest.mjs restore');
  });

  it('packs dist, README.md and package.json only', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '-w', manifest.name], {
      cwd: root,
      encoding: 'utf8',
    });
    const [{ files }] = JSON.parse(out) as [{ files: { path: string }[] }];
    const paths = files.map((f) => f.path);
    expect(paths.filter((p) => !p.startsWith('dist/') && p !== 'README.md' && p !== 'package.json')).toEqual([]);
    expect(paths.filter((p) => /\.test\.|tsbuildinfo|testkit/.test(p))).toEqual([]);
    expect(paths).toContain('README.md');
  });

  it('publishes exports that point into dist, without the source condition', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ashlar-pack-'));
    try {
      const original = readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8');
      writeFileSync(join(tmp, 'package.json'), original);
      const script = join(root, 'scripts', 'pack-manifest.mjs');
      execFileSync(process.execPath, [script, 'strip'], { cwd: tmp });
      const packed = JSON.parse(readFileSync(join(tmp, 'package.json'), 'utf8')) as Manifest;
      expect(JSON.stringify(packed.exports)).not.toContain('@ashlar/source');
      const targets = exportTargets(packed.exports, '');
      expect(targets.length).toBeGreaterThan(0);
      for (const target of targets) expect(target).toMatch(/^\.\/dist\//);
      // Everything else is unchanged, and restore puts the original back byte for byte.
      expect({ ...packed, exports: undefined }).toEqual({ ...JSON.parse(original), exports: undefined });
      execFileSync(process.execPath, [script, 'restore'], { cwd: tmp });
      expect(readFileSync(join(tmp, 'package.json'), 'utf8')).toBe(original);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('keeps the source condition in the repo for its own tests', () => {
    expect(exportTargets(manifest.exports, 'types').filter((t) => t.startsWith('./src/'))).not.toEqual([]);
  });
});
