import { hexToBytes } from '@ethereumjs/util';
import { invalidParam } from './errors.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const UINT = /^(0|[1-9][0-9]*)$/;
const INT = /^-?(0|[1-9][0-9]*)$/;

/** Parameter parsers: a value in, a typed value out, or a 422 naming the parameter (never a 500). */
export function parseAddress(raw: string | null | undefined, param: string): Uint8Array {
  if (raw == null || !ADDRESS.test(raw))
    throw invalidParam(param, 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]{40})$/');
  return hexToBytes(raw.toLowerCase() as `0x${string}`);
}

export function parseHash(raw: string | null | undefined, param: string): Uint8Array {
  if (raw == null || !HASH.test(raw)) throw invalidParam(param, 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]{64})$/');
  return hexToBytes(raw.toLowerCase() as `0x${string}`);
}

/** A non-negative integer (block numbers, indexes, counts), at most 2^64-1. */
export function parseUint(raw: string | null | undefined, param: string): bigint {
  if (raw == null || !UINT.test(raw)) throw invalidParam(param, `Invalid integer. Got: ${describe(raw)}`);
  const n = BigInt(raw);
  if (n >= 1n << 64n) throw invalidParam(param, 'Invalid integer. Got: a number beyond 2^64');
  return n;
}

/** A non-negative integer as a JS number (log and tx indexes, items_count). */
export function parseSmallUint(raw: string | null | undefined, param: string, max = 0xffffffff): number {
  const n = parseUint(raw, param);
  if (n > BigInt(max)) throw invalidParam(param, `Invalid integer. Expected at most ${max}`);
  return Number(n);
}

/** A decimal integer string as Blockscout's IntegerString (wei amounts, balances). */
export function parseIntegerString(raw: string | null | undefined, param: string): bigint {
  if (raw == null || !INT.test(raw)) throw invalidParam(param, `Invalid format. Expected ~r/^-?([1-9][0-9]*|0)$/`);
  return BigInt(raw);
}

export type BlockId = { kind: 'number'; number: bigint } | { kind: 'hash'; hash: Uint8Array };

/** `/blocks/{block_hash_or_number_param}`: a number or a 32-byte hash. */
export function parseBlockId(raw: string, param = 'block_hash_or_number_param'): BlockId {
  if (UINT.test(raw)) {
    const n = BigInt(raw);
    if (n < 1n << 64n) return { kind: 'number', number: n };
  }
  if (HASH.test(raw)) return { kind: 'hash', hash: hexToBytes(raw.toLowerCase() as `0x${string}`) };
  throw invalidParam(
    param,
    'Failed to cast value using any of: Schema(title: "FullHash", type: :string), Schema(type: :integer)',
  );
}

/** One of `allowed`, or undefined when absent or empty. */
export function parseEnum<T extends string>(raw: string | null, param: string, allowed: readonly T[]): T | undefined {
  if (raw === null || raw === '') return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw invalidParam(param, 'Invalid value for enum');
  return raw as T;
}

/** A comma-separated list of `allowed` values (Blockscout also accepts it in brackets). */
export function parseEnumList<T extends string>(
  raw: string | null,
  param: string,
  allowed: readonly T[],
): T[] | undefined {
  if (raw === null || raw === '') return undefined;
  const parts = raw
    .replace(/^\[/, '')
    .replace(/\]$/, '')
    .split(',')
    .map((s) => s.trim());
  const out: T[] = [];
  for (const p of parts) {
    if (!(allowed as readonly string[]).includes(p)) throw invalidParam(param, 'Invalid value for enum');
    if (!out.includes(p as T)) out.push(p as T);
  }
  return out;
}

function describe(raw: string | null | undefined): string {
  if (raw == null) return 'nothing';
  return raw.length > 40 ? `${JSON.stringify(raw.slice(0, 40))}…` : JSON.stringify(raw);
}
