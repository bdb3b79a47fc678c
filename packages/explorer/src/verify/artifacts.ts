import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type SolcOutput, candidatesOf } from './compile.js';
import { normalizeVersion } from './solc.js';
import type { ByteRange, Candidate, LinkReferences, StandardInput } from './types.js';

/** Folders never worth walking into. */
const SKIP = new Set(['node_modules', '.git', 'cache', 'typechain-types', 'lib']);

async function jsonFiles(dir: string, out: string[] = [], depth = 0): Promise<string[]> {
  if (depth > 8) return out;
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP.has(e.name)) await jsonFiles(p, out, depth + 1);
    } else if (e.name.endsWith('.json') && !e.name.endsWith('.dbg.json')) out.push(p);
  }
  return out;
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A build-info: Hardhat 2 (`input` + `output` in one file), Hardhat 3 (`<id>.json` with the
 * input beside `<id>.output.json`) or Foundry's `out/build-info` (the same keys).
 */
async function fromBuildInfo(file: string, json: Record<string, unknown>): Promise<Candidate[]> {
  const input = json.input;
  const version = json.solcLongVersion ?? json.solcVersion;
  if (!isObject(input) || typeof version !== 'string') return [];
  let output = json.output;
  if (!isObject(output)) {
    const sibling = await readJson(file.replace(/\.json$/, '.output.json'));
    output = sibling?.output;
  }
  if (!isObject(output)) return [];
  return candidatesOf(input as unknown as StandardInput, output as SolcOutput, version);
}

interface FoundryArtifact {
  abi: unknown[];
  bytecode: { object: string; linkReferences?: LinkReferences };
  deployedBytecode: {
    object: string;
    linkReferences?: LinkReferences;
    immutableReferences?: Record<string, ByteRange[]>;
  };
  metadata: {
    compiler: { version: string };
    language: string;
    settings: Record<string, unknown> & { compilationTarget?: Record<string, string> };
    sources: Record<string, unknown>;
  };
}

function asFoundry(json: Record<string, unknown>): FoundryArtifact | undefined {
  let metadata = json.metadata;
  if (!isObject(metadata) && typeof json.rawMetadata === 'string') {
    try {
      metadata = JSON.parse(json.rawMetadata);
    } catch {
      return undefined;
    }
  }
  const b = json.bytecode;
  const d = json.deployedBytecode;
  if (!Array.isArray(json.abi) || !isObject(b) || !isObject(d) || !isObject(metadata)) return undefined;
  if (typeof b.object !== 'string' || typeof d.object !== 'string') return undefined;
  const m = metadata as FoundryArtifact['metadata'];
  if (!isObject(m.compiler) || !isObject(m.settings) || !isObject(m.sources)) return undefined;
  return { ...(json as unknown as FoundryArtifact), metadata: m };
}

/**
 * A Foundry artifact (`out/File.sol/Name.json`): its metadata names the sources, read from the
 * project (the folder holding `out/`); the input is rebuilt from the metadata's settings.
 */
async function fromFoundry(file: string, a: FoundryArtifact): Promise<Candidate[]> {
  const { compilationTarget, ...settings } = a.metadata.settings;
  const target = Object.entries(compilationTarget ?? {})[0];
  if (!target || a.bytecode.object.replace(/^0x/, '') === '') return [];
  const outDir = dirname(dirname(file));
  const roots = [dirname(outDir), outDir];
  const sources: StandardInput['sources'] = {};
  for (const path of Object.keys(a.metadata.sources)) {
    for (const root of roots) {
      try {
        sources[path] = { content: await readFile(join(root, path), 'utf8') };
        break;
      } catch {
        // not under this root
      }
    }
  }
  const input: StandardInput = { language: a.metadata.language ?? 'Solidity', sources, settings };
  const [filePath, name] = target;
  const output: SolcOutput = {
    contracts: {
      [filePath]: {
        [name]: {
          abi: a.abi,
          evm: {
            bytecode: { object: a.bytecode.object.replace(/^0x/, ''), linkReferences: a.bytecode.linkReferences },
            deployedBytecode: {
              object: a.deployedBytecode.object.replace(/^0x/, ''),
              linkReferences: a.deployedBytecode.linkReferences,
              immutableReferences: a.deployedBytecode.immutableReferences,
            },
          },
        },
      },
    },
  };
  return candidatesOf(input, output, normalizeVersion(a.metadata.compiler.version));
}

/**
 * Every compiled contract under a Hardhat (`artifacts/build-info/*.json`) or Foundry (`out/**.json`,
 * `out/build-info`) directory; unreadable or unrelated files are skipped. Build-infos win over
 * per-contract artifacts of the same code (they carry the exact input).
 */
export async function readArtifacts(dir: string): Promise<Candidate[]> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return [];
  const fromInfos: Candidate[] = [];
  const fromArtifacts: Candidate[] = [];
  for (const file of await jsonFiles(dir)) {
    if (file.endsWith('.output.json')) continue;
    const json = await readJson(file);
    if (!json) continue;
    try {
      if (basename(dirname(file)) === 'build-info') fromInfos.push(...(await fromBuildInfo(file, json)));
      else {
        const f = asFoundry(json);
        if (f) fromArtifacts.push(...(await fromFoundry(file, f)));
      }
    } catch {
      // a file that looks like an artifact but is not one: not ours to verify
    }
  }
  const seen = new Set(fromInfos.map((c) => `${c.filePath}:${c.name}:${c.runtime}`));
  return [...fromInfos, ...fromArtifacts.filter((c) => !seen.has(`${c.filePath}:${c.name}:${c.runtime}`))];
}
