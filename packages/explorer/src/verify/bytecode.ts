import * as Cbor from 'ox/Cbor';
import type { ByteRange, LinkReferences } from './types.js';

/** The CBOR metadata solc appends to runtime code, and where it starts. */
export interface Metadata {
  /** Offset of the CBOR map; the two length bytes follow it. */
  start: number;
  fields: Record<string, unknown>;
}

/**
 * Reads the trailing CBOR metadata: the last two bytes are the map's length (Solidity docs,
 * "Encoding of the Metadata Hash in the Bytecode"). Undefined when there is none or it does not
 * decode (code compiled with `bytecodeHash: none` and `appendCBOR: false`).
 */
export function readMetadata(code: Uint8Array): Metadata | undefined {
  if (code.length < 2) return undefined;
  const len = (code[code.length - 2] << 8) | code[code.length - 1];
  const start = code.length - 2 - len;
  if (len === 0 || start < 0) return undefined;
  try {
    const fields = Cbor.decode(code.subarray(start, code.length - 2)) as unknown;
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
    return { start, fields: fields as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

/** Compiled hex (maybe with `__$…$__` link placeholders) as bytes, placeholders zeroed. */
export function compiledBytes(hex: string): Uint8Array {
  const clean = hex.replace(/^0x/, '').replace(/__.{36}__/g, (m) => '0'.repeat(m.length));
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) throw new Error('compiled bytecode is not hex');
  return Uint8Array.from(Buffer.from(clean, 'hex'));
}

function blank(code: Uint8Array, ranges: Iterable<ByteRange>): void {
  for (const r of ranges) code.fill(0, r.start, Math.min(code.length, r.start + r.length));
}

export type CompareResult =
  | { ok: true; match: 'full' | 'partial'; libraries: { name: string; address_hash: string }[] }
  | { ok: false; reason: string };

function firstDifference(a: Uint8Array, b: Uint8Array, end: number): number {
  for (let i = 0; i < end; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/**
 * Compares deployed runtime code with compiled runtime code: immutables (solc's
 * `immutableReferences`) and library addresses (`linkReferences`) are blanked in both, so they
 * may differ. Equal everywhere else is a full match; equal except in the trailing CBOR metadata
 * (another metadata hash: other comments, paths or settings that do not change the code) is a
 * partial match, as Blockscout's `is_partially_verified`.
 */
export function compareRuntime(
  deployed: Uint8Array,
  compiledHex: string,
  immutables: Record<string, ByteRange[]>,
  links: LinkReferences,
): CompareResult {
  const expected = compiledBytes(compiledHex);
  if (deployed.length !== expected.length) {
    return {
      ok: false,
      reason: `runtime bytecode length differs: deployed ${deployed.length} bytes, compiled ${expected.length} bytes`,
    };
  }
  const d = Uint8Array.from(deployed);
  const e = Uint8Array.from(expected);
  for (const ranges of Object.values(immutables)) {
    blank(d, ranges);
    blank(e, ranges);
  }
  const libraries: { name: string; address_hash: string }[] = [];
  for (const [file, libs] of Object.entries(links)) {
    for (const [lib, ranges] of Object.entries(libs)) {
      const first = ranges[0];
      if (first) {
        const address = `0x${Buffer.from(d.subarray(first.start, first.start + 20)).toString('hex')}`;
        libraries.push({ name: `${file}:${lib}`, address_hash: address });
      }
      blank(d, ranges);
      blank(e, ranges);
    }
  }
  const diff = firstDifference(d, e, d.length);
  if (diff === -1) return { ok: true, match: 'full', libraries };
  const meta = readMetadata(e);
  const deployedMeta = readMetadata(d);
  if (meta && deployedMeta && meta.start === deployedMeta.start && diff >= meta.start) {
    return { ok: true, match: 'partial', libraries };
  }
  return {
    ok: false,
    reason: `runtime bytecode differs at byte ${diff} (of ${d.length}): deployed 0x${hex2(d[diff])}, compiled 0x${hex2(e[diff])}`,
  };
}

const hex2 = (b: number | undefined) => (b ?? 0).toString(16).padStart(2, '0');

/**
 * The constructor arguments in a creation transaction's input: what follows the compiled
 * creation code. Undefined when the input does not start with that code (link placeholders and
 * the embedded metadata are allowed to differ).
 */
export function splitCreationInput(
  input: Uint8Array,
  compiledHex: string,
  links: LinkReferences,
  partial: boolean,
): Uint8Array | undefined {
  const e = compiledBytes(compiledHex);
  if (input.length < e.length) return undefined;
  const d = Uint8Array.from(input.subarray(0, e.length));
  for (const libs of Object.values(links)) for (const ranges of Object.values(libs)) blank(d, ranges);
  const diff = firstDifference(d, e, e.length);
  // A partial match's creation code embeds the deployed runtime's other metadata: accept a
  // difference only when the compile is known to differ in metadata alone.
  if (diff !== -1 && !partial) return undefined;
  return input.subarray(e.length);
}
