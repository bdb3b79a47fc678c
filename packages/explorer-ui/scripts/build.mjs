// Builds the app into dist/app: index.html plus content-hashed assets/ (one JS bundle, one CSS file).
// `node scripts/build.mjs` from the package, or `buildExplorerUi()` from a test.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** Builds the app; resolves to the output directory and the files written (with their sizes). */
export async function buildExplorerUi({ outDir = join(root, 'dist', 'app') } = {}) {
  const assets = join(outDir, 'assets');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(assets, { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'app', 'main.tsx'), join(root, 'app', 'style.css')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: assets,
    entryNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const js = outputs.find((f) => f.endsWith('.js'));
  const css = outputs.find((f) => f.endsWith('.css'));
  const template = await readFile(join(root, 'app', 'index.html'), 'utf8');
  const html = template.replace('%JS%', `/assets/${js}`).replace('%CSS%', `/assets/${css}`);
  await writeFile(join(outDir, 'index.html'), html);
  return { outDir, js, css };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { outDir, js } = await buildExplorerUi();
  console.log(`explorer-ui: built ${join(outDir, 'assets', js)}`);
}
