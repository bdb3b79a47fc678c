/**
 * Build folders as Hardhat and Foundry write them, made from our own solc compile of
 * test/contracts: `artifacts/build-info/<id>.json` (Hardhat 2) and `out/<File>.sol/<Name>.json`
 * with `metadata` + `rawMetadata` beside the sources (Foundry).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import solc from 'solc';
import { readSources } from '../contracts/compile.js';

export const FIXTURE_SETTINGS = {
  evmVersion: 'cancun',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: {
    '*': {
      '*': [
        'abi',
        'metadata',
        'evm.bytecode.object',
        'evm.bytecode.linkReferences',
        'evm.deployedBytecode.object',
        'evm.deployedBytecode.linkReferences',
        'evm.deployedBytecode.immutableReferences',
      ],
    },
  },
};

export interface StandardJson {
  language: string;
  sources: Record<string, { content: string }>;
  settings: Record<string, unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: solc's output JSON, read field by field in tests
export type SolcOut = any;

export function compile(sources: Record<string, { content: string }> = readSources()): {
  input: StandardJson;
  output: SolcOut;
} {
  const input: StandardJson = { language: 'Solidity', sources, settings: FIXTURE_SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOut;
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0) throw new Error(JSON.stringify(errors));
  return { input, output };
}

export const solcLongVersion = (): string => (solc.version() as string).replace(/\.Emscripten\.clang$/, '');

/** `<dir>/artifacts/build-info/<id>.json`; returns the artifacts folder. */
export function writeHardhatBuild(dir: string, c = compile()): string {
  const artifacts = join(dir, 'artifacts');
  mkdirSync(join(artifacts, 'build-info'), { recursive: true });
  const long = solcLongVersion();
  writeFileSync(
    join(artifacts, 'build-info', 'f00dfeed.json'),
    JSON.stringify({
      id: 'f00dfeed',
      _format: 'hh-sol-build-info-1',
      solcVersion: long.split('+')[0],
      solcLongVersion: long,
      input: c.input,
      output: c.output,
    }),
  );
  return artifacts;
}

/** `<dir>/out/<File>.sol/<Name>.json` plus the sources at `<dir>/<File>.sol`; returns the out folder. */
export function writeFoundryBuild(dir: string, c = compile()): string {
  const out = join(dir, 'out');
  for (const [file, { content }] of Object.entries(c.input.sources)) writeFileSync(join(dir, file), content);
  for (const [file, contracts] of Object.entries(c.output.contracts as Record<string, Record<string, SolcOut>>)) {
    mkdirSync(join(out, file), { recursive: true });
    for (const [name, k] of Object.entries(contracts)) {
      writeFileSync(
        join(out, file, `${name}.json`),
        JSON.stringify({
          abi: k.abi,
          bytecode: { object: `0x${k.evm.bytecode.object}`, linkReferences: k.evm.bytecode.linkReferences },
          deployedBytecode: {
            object: `0x${k.evm.deployedBytecode.object}`,
            linkReferences: k.evm.deployedBytecode.linkReferences,
            immutableReferences: k.evm.deployedBytecode.immutableReferences ?? {},
          },
          metadata: JSON.parse(k.metadata),
          rawMetadata: k.metadata,
          id: 0,
        }),
      );
    }
  }
  return out;
}
