/**
 * The execution-apis rpc-compat vectors, replayed and compared as hive's rpc-compat simulator
 * does (simulators/ethereum/rpc-compat; conformance README §3.4):
 *   - files are walked in lexical path order (Go's filepath.Walk), each one a test;
 *   - `>>` lines are sent in order, each `<<` line is the expected response;
 *   - `speconly` tests with a success response: only the result is validated against the
 *     method's result schema;
 *   - otherwise wherever both sides hold an `error` object with a `message`, the messages are
 *     dropped, and the responses must be equal as JSON: key order free, array order significant,
 *     extra or missing keys fail, numbers compared by value.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileSchema, resultSchema } from './schema.js';

/** Vendored execution-apis data (test/fixtures/execution-apis/SOURCE.md). */
export const CONFORMANCE_DIR = fileURLToPath(new URL('../fixtures/execution-apis', import.meta.url));
export const TESTS_DIR = join(CONFORMANCE_DIR, 'tests');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface Exchange {
  request: string;
  response: string;
}

export interface Vector {
  /** `method/name`, without `.io`. */
  name: string;
  /** The folder: the method under test. */
  group: string;
  specOnly: boolean;
  exchanges: Exchange[];
}

/**
 * Fields the interface spec keeps and the vectors (like geth today) leave out; the spec wins, so
 * the runner drops them from Ashlar's response before comparing — only these, only where the
 * expected response lacks them. The README's "rpc-compat conformance" section lists them.
 */
export const SPEC_FIELDS: readonly { methods: readonly string[]; field: string; why: string }[] = [
  {
    methods: ['eth_getBlockByHash', 'eth_getBlockByNumber'],
    field: 'totalDifficulty',
    why: 'interface spec §2.4 lists totalDifficulty in block objects; execution-apis removed it after the merge',
  },
];

/** Every `.io` file under `dir`, in hive's walk order. */
export function loadVectors(dir = TESTS_DIR): Vector[] {
  const out: Vector[] = [];
  const walk = (d: string) => {
    // filepath.Walk reads each directory sorted by name (byte order).
    for (const entry of readdirSync(d).sort()) {
      const p = join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (entry.endsWith('.io')) out.push(parseVector(relative(dir, p), readFileSync(p, 'utf8')));
    }
  };
  walk(dir);
  return out;
}

export function parseVector(path: string, text: string): Vector {
  const name = path.replace(/\.io$/, '');
  const exchanges: Exchange[] = [];
  let specOnly = false;
  let pending: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('//')) {
      if (/^\/\/\s*speconly:/.test(line)) specOnly = true;
      continue;
    }
    if (line.startsWith('>>')) {
      if (pending !== undefined) throw new Error(`${path}: two requests in a row`);
      pending = line.slice(2).trim();
    } else if (line.startsWith('<<')) {
      if (pending === undefined) throw new Error(`${path}: response without request`);
      exchanges.push({ request: pending, response: line.slice(2).trim() });
      pending = undefined;
    } else throw new Error(`${path}: unexpected line ${line.slice(0, 40)}`);
  }
  return { name, group: name.split('/')[0], specOnly, exchanges };
}

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Drops `error.message` wherever both sides have an error object with a message (hive's rule). */
function dropBothErrorMessages(a: Json, b: Json): void {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) dropBothErrorMessages(a[i], b[i]);
    return;
  }
  if (!isObject(a) || !isObject(b)) return;
  const ea = a.error;
  const eb = b.error;
  if (isObject(ea) && isObject(eb) && 'message' in ea && 'message' in eb) {
    delete ea.message;
    delete eb.message;
  }
  for (const k of Object.keys(a)) if (k in b) dropBothErrorMessages(a[k], b[k]);
}

/** Path-by-path differences (empty when equal); numbers compare by value, keys in any order. */
export function jsonDiff(actual: Json, expected: Json, path = ''): string[] {
  if (typeof actual === 'number' && typeof expected === 'number')
    return actual === expected ? [] : [`${path || '.'}: got ${actual}, want ${expected}`];
  if (Array.isArray(actual) && Array.isArray(expected)) {
    const out: string[] = [];
    if (actual.length !== expected.length)
      out.push(`${path || '.'}: array of ${actual.length} items, want ${expected.length}`);
    for (let i = 0; i < Math.min(actual.length, expected.length); i++)
      out.push(...jsonDiff(actual[i], expected[i], `${path}[${i}]`));
    return out;
  }
  if (isObject(actual) && isObject(expected)) {
    const out: string[] = [];
    for (const k of Object.keys(expected)) {
      if (!(k in actual)) out.push(`${path}.${k}: missing (want ${short(expected[k])})`);
      else out.push(...jsonDiff(actual[k], expected[k], `${path}.${k}`));
    }
    for (const k of Object.keys(actual))
      if (!(k in expected)) out.push(`${path}.${k}: unexpected (${short(actual[k])})`);
    return out;
  }
  if (actual === expected) return [];
  return [`${path || '.'}: got ${short(actual)}, want ${short(expected)}`];
}

function short(v: Json | undefined): string {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
}

/** Removes the spec-kept fields (SPEC_FIELDS) the expected result lacks. */
function dropSpecFields(method: string, actual: JsonObject, expected: JsonObject): void {
  const a = actual.result;
  const e = expected.result;
  if (!isObject(a)) return;
  for (const f of SPEC_FIELDS) {
    if (f.methods.includes(method) && f.field in a && !(isObject(e) && f.field in e)) delete a[f.field];
  }
}

const validators = new Map<string, ReturnType<typeof compileSchema>>();

function schemaErrors(method: string, result: Json): string[] {
  let v = validators.get(method);
  if (!v) {
    v = compileSchema(resultSchema(method) as Parameters<typeof compileSchema>[0]);
    validators.set(method, v);
  }
  if (v(result)) return [];
  return (v.errors ?? []).slice(0, 8).map((e) => `schema: ${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The problems with one response (empty when it passes). */
export function checkResponse(vector: Vector, exchange: Exchange, responseText: string): string[] {
  let actual: Json;
  try {
    actual = JSON.parse(responseText) as Json;
  } catch {
    return [`response is not JSON: ${responseText.slice(0, 200)}`];
  }
  const expected = JSON.parse(exchange.response) as Json;
  const method = (JSON.parse(exchange.request) as { method: string }).method;
  if (vector.specOnly && isObject(actual) && !('error' in actual)) {
    try {
      return schemaErrors(method, actual.result ?? null);
    } catch (e) {
      return [`no schema: ${(e as Error).message}`];
    }
  }
  if (isObject(actual) && isObject(expected)) dropSpecFields(method, actual, expected);
  dropBothErrorMessages(actual, expected);
  return jsonDiff(actual, expected);
}

export interface VectorResult {
  vector: Vector;
  /** One entry per failing exchange: which request, and its differences. */
  failures: { request: string; diff: string[] }[];
}

/** Replays every vector in order through `send` (a raw JSON-RPC body in, the raw response out). */
export async function runVectors(vectors: Vector[], send: (body: string) => Promise<string>): Promise<VectorResult[]> {
  const results: VectorResult[] = [];
  for (const vector of vectors) {
    const failures: VectorResult['failures'] = [];
    for (const exchange of vector.exchanges) {
      let diff: string[];
      try {
        diff = checkResponse(vector, exchange, await send(exchange.request));
      } catch (e) {
        diff = [`request failed: ${(e as Error).message}`];
      }
      if (diff.length > 0) failures.push({ request: exchange.request, diff });
    }
    results.push({ vector, failures });
  }
  return results;
}

/** `N passed, N failed` and each failure with its diff. */
export function report(results: VectorResult[]): string {
  const failed = results.filter((r) => r.failures.length > 0);
  const lines: string[] = [];
  for (const r of failed) {
    lines.push(`FAIL ${r.vector.name}${r.vector.specOnly ? ' (speconly)' : ''}`);
    for (const f of r.failures) {
      lines.push(`  >> ${f.request.length > 200 ? `${f.request.slice(0, 197)}...` : f.request}`);
      for (const d of f.diff.slice(0, 12)) lines.push(`     ${d}`);
      if (f.diff.length > 12) lines.push(`     … ${f.diff.length - 12} more differences`);
    }
  }
  lines.push(`rpc-compat: ${results.length - failed.length} passed, ${failed.length} failed`);
  return lines.join('\n');
}
