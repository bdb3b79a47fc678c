#!/usr/bin/env node
/**
 * prepack / postpack of every published package (npm runs lifecycle scripts in the package's
 * directory). The `@ashlar/source` export condition points at src/*.ts for the repo's own tests
 * (vitest and tsc resolve it); a tarball ships dist only, so its package.json must not carry it.
 * npm has no publishConfig for exports, so `strip` rewrites package.json for the pack and keeps
 * the original beside it, and `restore` puts the original back.
 *
 *   node ../../scripts/pack-manifest.mjs strip | restore
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const BACKUP = '.package.json.prepack';
const SOURCE_CONDITION = '@ashlar/source';

/** The exports map without the source condition, at any depth. */
function withoutSource(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key !== SOURCE_CONDITION) out[key] = withoutSource(inner);
  }
  return out;
}

const mode = process.argv[2];
if (mode === 'strip') {
  // A pack that died before postpack left the original in the backup: strip from that, keep it.
  if (!existsSync(BACKUP)) writeFileSync(BACKUP, readFileSync(MANIFEST));
  const manifest = JSON.parse(readFileSync(BACKUP, 'utf8'));
  manifest.exports = withoutSource(manifest.exports);
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (mode === 'restore') {
  if (existsSync(BACKUP)) renameSync(BACKUP, MANIFEST);
} else {
  console.error('usage: pack-manifest.mjs strip|restore');
  process.exit(2);
}
