/**
 * Compiles every `*.sol` file in this directory with solc-js (standard JSON) and writes
 * `artifacts.json`: `{ [ContractName]: { abi, bytecode, deployedBytecode } }`.
 *
 *   node --import tsx test/contracts/compile.ts
 *
 * `compileContracts()` is also imported by `test/contracts.test.ts`, which fails when the
 * committed artifacts no longer match the sources.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import solc from 'solc';

export const CONTRACTS_DIR = fileURLToPath(new URL('.', import.meta.url));
export const ARTIFACTS_PATH = fileURLToPath(new URL('./artifacts.json', import.meta.url));

/** Compiler settings shared by every fixture contract. */
export const SETTINGS = {
  evmVersion: 'cancun',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: {
    '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] },
  },
} as const;

export interface CompiledContract {
  abi: unknown[];
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
}

export type CompiledContracts = Record<string, CompiledContract>;

interface SolcError {
  severity: 'error' | 'warning' | 'info';
  formattedMessage: string;
}

interface SolcOutput {
  errors?: SolcError[];
  contracts?: Record<
    string,
    Record<
      string,
      {
        abi: unknown[];
        evm: {
          bytecode: { object: string };
          deployedBytecode: { object: string };
        };
      }
    >
  >;
}

/** Reads the sources with normalised line endings, so the metadata hash does not depend on checkout settings. */
export function readSources(dir: string = CONTRACTS_DIR): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sol'))
    .sort()) {
    sources[file] = {
      content: readFileSync(new URL(file, pathToFileURL(`${dir}/`)), 'utf8').replace(/\r\n/g, '\n'),
    };
  }
  return sources;
}

/** The solc-js version that produced the artifacts (e.g. `0.8.37+commit.….Emscripten.clang`). */
export function compilerVersion(): string {
  return solc.version() as string;
}

/** Compiles all sources; throws on any compiler error. Contracts are keyed by name, sorted. */
export function compileContracts(dir: string = CONTRACTS_DIR): CompiledContracts {
  const sources = readSources(dir);
  const input = { language: 'Solidity', sources, settings: SETTINGS };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (path: string) => {
        const local = sources[path.replace(/^\.\//, '')];
        return local ? { contents: local.content } : { error: `import not found: ${path}` };
      },
    }) as string,
  ) as SolcOutput;

  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  }

  const found: Array<[string, CompiledContract]> = [];
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(contracts)) {
      if (found.some(([n]) => n === name)) throw new Error(`duplicate contract name ${name} (in ${file})`);
      found.push([
        name,
        {
          abi: c.abi,
          bytecode: `0x${c.evm.bytecode.object}`,
          deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        },
      ]);
    }
  }
  found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(found);
}

/** The exact text written to artifacts.json: 2-space indented JSON, trailing newline. */
export function serializeArtifacts(artifacts: CompiledContracts): string {
  return `${JSON.stringify(artifacts, null, 2)}\n`;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const artifacts = compileContracts();
  writeFileSync(ARTIFACTS_PATH, serializeArtifacts(artifacts));
  console.log(`solc ${compilerVersion()}: wrote ${Object.keys(artifacts).join(', ')} to ${ARTIFACTS_PATH}`);
}
