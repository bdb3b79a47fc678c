import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The solc version verification can compile with, read from the installed package's manifest
 * (`solc` is an optional peer: not installed answers none). Reading the manifest does not load
 * the compiler, which stays a lazy import until a verification compiles.
 */
export function installedSolcVersions(): string[] {
  try {
    const manifest = createRequire(import.meta.url).resolve('solc/package.json');
    const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? [`v${version}`] : [];
  } catch {
    return [];
  }
}

/** Blockscout's license ids, which its verification form offers (`license_type`). */
export const LICENSE_TYPES = {
  none: 1,
  unlicense: 2,
  mit: 3,
  gnu_gpl_v2: 4,
  gnu_gpl_v3: 5,
  gnu_lgpl_v2_1: 6,
  gnu_lgpl_v3: 7,
  bsd_2_clause: 8,
  bsd_3_clause: 9,
  mpl_2_0: 10,
  osl_3_0: 11,
  apache_2_0: 12,
  gnu_agpl_v3: 13,
  bsl_1_1: 14,
} as const;
