// Root `postinstall`: installs the Hardhat 3 example (a project of its own, with its own lockfile:
// it brings Hardhat 3 beside the root's Hardhat 2, and a Node 22 binary that must not shadow the
// root's Node), so that `npm install && npm test` runs every test on a fresh clone.
// Skipped when the install matches its lockfile (a stamp written after it), or with
// ASHLAR_SKIP_EXAMPLES=1.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'hardhat3');
const lock = join(dir, 'package-lock.json');
if (process.env.ASHLAR_SKIP_EXAMPLES === '1' || !existsSync(lock)) process.exit(0);

const stamp = join(dir, 'node_modules', '.ashlar-lock-stamp');
const digest = createHash('sha256').update(readFileSync(lock)).digest('hex');
if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) process.exit(0);

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const r = spawnSync(npm, ['ci', '--prefix', dir, '--no-audit', '--no-fund'], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
writeFileSync(stamp, digest);
