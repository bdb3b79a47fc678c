import type { Candidate } from './types.js';

/** One instruction's entry of a solc source map: byte range and source id (-1: compiler-made). */
interface MapEntry {
  start: number;
  length: number;
  file: number;
}

/** Instruction index of each pc of runtime code (PUSH data belongs to its PUSH). */
function instructionIndexes(runtimeHex: string): Int32Array {
  // Unlinked library placeholders (`__$…$__`) are 20 bytes like the address they stand for.
  const code = Buffer.from(runtimeHex.replace(/^0x/, '').replace(/__\$[0-9a-fA-F]{34}\$__/g, '0'.repeat(40)), 'hex');
  const out = new Int32Array(code.length).fill(-1);
  let index = 0;
  for (let pc = 0; pc < code.length; index++) {
    out[pc] = index;
    const op = code[pc] ?? 0;
    pc += op >= 0x60 && op <= 0x7f ? op - 0x5e : 1;
  }
  return out;
}

/** solc's compressed `s:l:f:j:m;…`: an empty field repeats the previous entry's. */
function decodeSourceMap(map: string): MapEntry[] {
  const out: MapEntry[] = [];
  let start = 0;
  let length = 0;
  let file = -1;
  for (const item of map.split(';')) {
    const [s, l, f] = item.split(':');
    if (s) start = Number(s);
    if (l) length = Number(l);
    if (f) file = Number(f);
    out.push({ start, length, file });
  }
  return out;
}

/** A statement that raises an error: where a revert is reported. */
const RAISES = /^(revert|require)\b/;

/**
 * `Boom.sol:11`, the line of the statement that reverted, from the build's source map. The
 * REVERT's own range when it is a `revert` or `require` statement; otherwise the optimizer
 * shared that REVERT (and its range) among several statements, and the statement is the first
 * other source range met walking back from it (`pcs`, newest first), past compiler-generated
 * code such as the ABI encoder of the error's arguments. Undefined without a map. Built on first use.
 */
export function sourceLineFinder(c: Candidate): ((pcs: readonly number[]) => string | undefined) | undefined {
  const map = c.runtimeSourceMap;
  const list = c.sourceList;
  if (!map || !list) return undefined;
  let indexes: Int32Array | undefined;
  let entries: MapEntry[] | undefined;
  const located = (pc: number) => {
    indexes ??= instructionIndexes(c.runtime);
    entries ??= decodeSourceMap(map);
    const entry = entries[indexes[pc] ?? -1];
    const path = entry ? list[entry.file] : undefined;
    const text = path === undefined ? undefined : c.input.sources[path]?.content;
    return entry && path !== undefined && text !== undefined ? { entry, path, text } : undefined;
  };
  return (pcs) => {
    const at = pcs.map(located);
    const revert = at[0];
    const same = (l: NonNullable<(typeof at)[number]>) =>
      revert !== undefined && l.entry.file === revert.entry.file && l.entry.start === revert.entry.start;
    const raises =
      revert && RAISES.test(revert.text.slice(revert.entry.start, revert.entry.start + revert.entry.length));
    const hit = (raises ? revert : at.find((l) => l !== undefined && !same(l))) ?? revert;
    if (!hit) return undefined;
    let line = 1;
    for (let i = hit.text.indexOf('\n'); i !== -1 && i < hit.entry.start; i = hit.text.indexOf('\n', i + 1)) line++;
    return `${hit.path}:${line}`;
  };
}
