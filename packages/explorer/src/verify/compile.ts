import { verificationFailed } from './errors.js';
import { compileQueue } from './compileWorker.js';
import { type SolcLoader, installedSolc, loadSolc, normalizeVersion } from './solc.js';
import type { ByteRange, Candidate, Language, LinkReferences, StandardInput } from './types.js';

/** The part of a solc output contract verification reads (also a Hardhat build-info's output). */
export interface SolcContractOutput {
  abi?: unknown[];
  evm?: {
    bytecode?: { object?: string; linkReferences?: LinkReferences };
    deployedBytecode?: {
      object?: string;
      linkReferences?: LinkReferences;
      immutableReferences?: Record<string, ByteRange[]>;
      /** solc's `s:l:f:j:m;…` map of each instruction to its source range (Hardhat's build-info has it). */
      sourceMap?: string;
    };
  };
}

export interface SolcOutput {
  errors?: { severity: string; formattedMessage?: string; message?: string }[];
  contracts?: Record<string, Record<string, SolcContractOutput>>;
  /** Each source's id, the `f` of a source map. */
  sources?: Record<string, { id?: number }>;
}

/** What verification needs solc to emit, whatever the input asked for. */
const OUTPUT_SELECTION = {
  '*': {
    '*': [
      'abi',
      'evm.bytecode.object',
      'evm.bytecode.linkReferences',
      'evm.deployedBytecode.object',
      'evm.deployedBytecode.linkReferences',
      'evm.deployedBytecode.immutableReferences',
    ],
  },
};

export function languageOf(input: StandardInput): Language {
  const l = String(input.language ?? 'Solidity').toLowerCase();
  if (l === 'solidity' || l === 'yul' || l === 'vyper') return l;
  throw verificationFailed(`language ${input.language} is not supported (Solidity or Yul)`);
}

/** Checks the shape of standard JSON input (object or JSON text) and returns it as an object. */
export function parseStandardInput(raw: unknown): StandardInput {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw verificationFailed(`standard JSON input is not JSON: ${(e as Error).message}`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw verificationFailed('standard JSON input must be an object with language, sources and settings');
  const v = value as Record<string, unknown>;
  const sources = v.sources;
  if (typeof sources !== 'object' || sources === null || Object.keys(sources).length === 0)
    throw verificationFailed('standard JSON input has no sources');
  for (const [path, s] of Object.entries(sources as Record<string, unknown>)) {
    if (typeof s !== 'object' || s === null || typeof (s as { content?: unknown }).content !== 'string')
      throw verificationFailed(`source ${path} has no content (URLs are not fetched)`);
  }
  if (v.settings !== undefined && (typeof v.settings !== 'object' || v.settings === null))
    throw verificationFailed('standard JSON input settings must be an object');
  return {
    language: typeof v.language === 'string' ? v.language : 'Solidity',
    sources: sources as StandardInput['sources'],
    settings: (v.settings as Record<string, unknown> | undefined) ?? {},
  };
}

/** Candidates of every contract in a solc output (artifact readers share this). */
export function candidatesOf(input: StandardInput, output: SolcOutput, compilerVersion: string): Candidate[] {
  const language = languageOf(input);
  const out: Candidate[] = [];
  for (const [filePath, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(contracts)) {
      const runtime = c.evm?.deployedBytecode?.object;
      if (!runtime || !c.evm?.bytecode?.object) continue; // interfaces and abstract contracts
      out.push({
        name,
        filePath,
        language,
        compilerVersion: `v${normalizeVersion(compilerVersion)}`,
        input,
        abi: c.abi ?? [],
        creation: c.evm.bytecode.object,
        runtime,
        immutableReferences: c.evm.deployedBytecode?.immutableReferences ?? {},
        creationLinkReferences: c.evm.bytecode.linkReferences ?? {},
        runtimeLinkReferences: c.evm.deployedBytecode?.linkReferences ?? {},
        ...runtimeSourceMap(c, output),
      });
    }
  }
  return out;
}

/** The runtime source map and the source paths by id, when the build kept them (for revert lines). */
function runtimeSourceMap(
  c: SolcContractOutput,
  output: SolcOutput,
): Pick<Candidate, 'runtimeSourceMap' | 'sourceList'> | undefined {
  const map = c.evm?.deployedBytecode?.sourceMap;
  if (!map || !output.sources) return undefined;
  const sourceList: string[] = [];
  for (const [path, { id }] of Object.entries(output.sources)) if (typeof id === 'number') sourceList[id] = path;
  return { runtimeSourceMap: map, sourceList };
}

/**
 * Compiles standard JSON input with the asked solc (never downloading one) and returns the
 * compiled contracts; solc's errors, if any, are the verification's error.
 */
export async function compileStandardInput(
  input: StandardInput,
  compilerVersion: string,
  loader?: SolcLoader,
): Promise<Candidate[]> {
  const language = languageOf(input);
  if (language === 'vyper') throw verificationFailed('Vyper sources cannot be compiled here (no vyper compiler)');
  const solc = await loadSolc(compilerVersion, loader);
  const settings = { ...(input.settings ?? {}), outputSelection: OUTPUT_SELECTION };
  const json = JSON.stringify({ language: input.language, sources: input.sources, settings });
  let output: SolcOutput;
  // The installed solc compiles in a worker thread (compileWorker.ts): a compilation holds no
  // other client. A loader's own compiler object can only run here, on the main thread.
  const inWorker = solc === (await installedSolc());
  let text: string;
  try {
    text = inWorker
      ? await compileQueue.compile(json)
      : solc.compile(json, {
          import: (path) => ({ error: `import not found: ${path} (every source must be in the input)` }),
        });
  } catch (e) {
    if (inWorker) throw e;
    throw verificationFailed(`solc failed: ${(e as Error).message}`);
  }
  try {
    output = JSON.parse(text) as SolcOutput;
  } catch (e) {
    throw verificationFailed(`solc failed: ${(e as Error).message}`);
  }
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    const text = errors.map((e) => (e.formattedMessage ?? e.message ?? '').trim()).join('\n');
    throw verificationFailed(`compilation failed:\n${text}`);
  }
  return candidatesOf(input, output, solc.version());
}

/** The candidates `contractName` names: `Name`, or `path/File.sol:Name`. */
export function pickContract(candidates: Candidate[], contractName: string | undefined): Candidate[] {
  if (!contractName) return candidates;
  const i = contractName.lastIndexOf(':');
  const file = i === -1 ? undefined : contractName.slice(0, i);
  const name = i === -1 ? contractName : contractName.slice(i + 1);
  const found = candidates.filter((c) => c.name === name && (file === undefined || c.filePath === file));
  if (found.length === 0) throw verificationFailed(`contract ${contractName} is not in the compiled sources`);
  return found;
}
