// Files the node reads and writes besides its database: a geth genesis.json, RLP block files.
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { type GethGenesisJson, type ImportResult, type KernelServices, exportBlocks, importBlocks } from '@ashlar/core';
import { importProgress } from './progress.js';

/** Reads and parses a genesis.json; the message names the file when it cannot. */
export async function readGenesisFile(path: string): Promise<GethGenesisJson> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read genesis file ${path}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`genesis file ${path} is not JSON: ${(e as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || !('config' in json) || !('alloc' in json))
    throw new Error(`genesis file ${path} has no "config" and "alloc" (not a geth genesis)`);
  return json as GethGenesisJson;
}

/**
 * Imports an RLP block file with progress on `out` (a bar on a terminal). Resolves to the
 * result; an invalid block is reported in it (the chain then stays at the block before).
 */
export async function importFile(
  services: KernelServices,
  path: string,
  out: NodeJS.WriteStream,
): Promise<ImportResult> {
  const bytes = await readFile(path).catch((e: Error) => {
    throw new Error(`cannot read ${path}: ${e.message}`);
  });
  const started = Date.now();
  const progress = importProgress(out);
  const result = await importBlocks(services, bytes, { onProgress: (p) => progress.update(p) });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const skipped = result.skipped > 0 ? `, ${result.skipped} already present` : '';
  progress.done(`imported ${result.imported} blocks from ${path}${skipped} in ${secs} s; head is block ${result.head}`);
  return result;
}

/** One line naming the first invalid block of an import. */
export function importErrorLine(result: ImportResult): string | undefined {
  const e = result.error;
  if (!e) return undefined;
  const which = e.number === undefined ? `block #${e.index + 1} of the file` : `block ${e.number}`;
  return `invalid ${which}: ${e.reason}`;
}

/** Writes blocks from..to as concatenated RLP; resolves to the number of blocks written. */
export async function exportFile(services: KernelServices, path: string, from?: bigint, to?: bigint): Promise<number> {
  const stream = createWriteStream(path);
  let count = 0;
  try {
    for await (const rlp of exportBlocks(services, from, to)) {
      if (!stream.write(rlp)) await once(stream, 'drain');
      count++;
    }
  } finally {
    stream.end();
    await once(stream, 'close');
  }
  return count;
}
