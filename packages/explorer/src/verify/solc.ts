import { verificationFailed } from './errors.js';

/** What verification needs of a solc-js compiler (`solc` from npm, or `solc.setupMethods(soljson)`). */
export interface SolcCompiler {
  version(): string;
  compile(input: string, callbacks?: { import?: (path: string) => { contents: string } | { error: string } }): string;
}

/**
 * Finds a compiler for a version (`0.8.37`, `v0.8.37+commit.a2c6b0e5`, …): a loader answers
 * undefined when it has none. Users with other soljson builds plug their own in (explorer
 * option `solc`), e.g. `(v) => v.startsWith('0.8.20') ? solc.setupMethods(require('./soljson-v0.8.20.js')) : undefined`.
 */
export type SolcLoader = (version: string) => SolcCompiler | undefined | Promise<SolcCompiler | undefined>;

/** `v0.8.37+commit.a2c6b0e5.Emscripten.clang` → `0.8.37+commit.a2c6b0e5` (Blockscout drops the platform). */
export function normalizeVersion(v: string): string {
  const version = /\d+\.\d+\.\d+/.exec(v)?.[0];
  if (!version) return v.trim().replace(/^v/, '');
  const commit = /commit\.[0-9a-f]{8}/.exec(v)?.[0];
  return commit ? `${version}+${commit}` : version;
}

/** True when `asked` names the compiler `actual` (a bare `0.8.37` names any commit of it). */
export function versionMatches(asked: string, actual: string): boolean {
  const a = normalizeVersion(asked);
  const b = normalizeVersion(actual);
  return a === b || (!a.includes('+') && b.split('+')[0] === a);
}

// `solc` is an optional peer dependency: ~10 MB of JavaScript and WebAssembly (+120 MB RSS once
// loaded), imported on the first verification that compiles, never at start. The specifier is a
// variable so neither TypeScript nor a bundler resolves it when solc is not installed.
const SOLC_PACKAGE = 'solc';
let installed: Promise<SolcCompiler | undefined> | undefined;

/** The solc package installed beside the explorer, imported once on first use; undefined when absent. */
export function installedSolc(): Promise<SolcCompiler | undefined> {
  installed ??= import(SOLC_PACKAGE).then(
    (mod: { default?: SolcCompiler } & Partial<SolcCompiler>) => mod.default ?? (mod as SolcCompiler),
    (e: { code?: string }) => {
      // not installed: verification then needs a loader; any other failure is worth seeing
      if (e.code === 'ERR_MODULE_NOT_FOUND') return undefined;
      throw e;
    },
  );
  return installed;
}

/** The default loader: the installed solc when its version is the one asked for. */
export const defaultSolcLoader: SolcLoader = async (version) => {
  const solc = await installedSolc();
  return solc && versionMatches(version, solc.version()) ? solc : undefined;
};

/** Tries the user's loader, then the installed compiler; a clear error naming the version otherwise. */
export async function loadSolc(version: string, loader?: SolcLoader): Promise<SolcCompiler> {
  const found = (loader && (await loader(version))) ?? (await defaultSolcLoader(version));
  if (found) return found;
  const have = (await installedSolc())?.version();
  throw verificationFailed(
    `compiler version ${version} is not available: this node has solc ${have ? `v${normalizeVersion(have)}` : '(none)'} ` +
      `and cannot download compilers; pass a loader for other versions (explorer option \`solc\`)`,
  );
}
