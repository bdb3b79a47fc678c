/**
 * Result schemas of the Ethereum execution-apis OpenRPC document
 * (test/fixtures/execution-apis/openrpc-results.json), compiled with Ajv (JSON Schema draft 2019-09).
 *
 *   expectResultSchema('eth_blockNumber', result)   // throws with Ajv's errors when it does not match
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2019 from 'ajv/dist/2019.js';
import type { ValidateFunction } from 'ajv';

export const OPENRPC_PATH = fileURLToPath(new URL('../fixtures/execution-apis/openrpc-results.json', import.meta.url));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface OpenRpcDocument {
  methods: { name: string; result?: { name: string; schema: Json } }[];
  components?: { schemas?: Record<string, Json> };
}

let doc: OpenRpcDocument | undefined;

function load(): OpenRpcDocument {
  doc ??= JSON.parse(readFileSync(OPENRPC_PATH, 'utf8')) as OpenRpcDocument;
  return doc;
}

/** Follows `#/components/schemas/X` (the only $ref form execution-apis uses), inlining recursively. */
function resolveRefs(node: Json, root: OpenRpcDocument, seen: readonly string[] = []): Json {
  if (Array.isArray(node)) return node.map((n) => resolveRefs(n, root, seen));
  if (node === null || typeof node !== 'object') return node;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
    if (!m) throw new Error(`unsupported $ref ${ref}`);
    if (seen.includes(ref)) throw new Error(`recursive $ref ${[...seen, ref].join(' -> ')}`);
    const target = root.components?.schemas?.[m[1]];
    if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
    const { $ref: _drop, ...rest } = node;
    const resolved = resolveRefs(target, root, [...seen, ref]);
    return Object.keys(rest).length === 0 ? resolved : { allOf: [resolved, resolveRefs(rest, root, seen)] };
  }
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(node)) out[k] = resolveRefs(v, root, seen);
  return out;
}

/** Names of all methods the document describes. */
export function openRpcMethodNames(): string[] {
  return load().methods.map((m) => m.name);
}

/** The `result.schema` of `method`, $refs resolved. */
export function resultSchema(method: string): Json {
  const root = load();
  const m = root.methods.find((x) => x.name === method);
  if (!m?.result) throw new Error(`execution-apis has no result schema for ${method}`);
  return resolveRefs(m.result.schema, root);
}

// ajv is CommonJS: under NodeNext the default import is module.exports, whose `default` is the class.
const ajv = new Ajv2019.default({ strict: false, allErrors: true });
const cache = new Map<string, ValidateFunction>();

/** Compiles an arbitrary schema (used for spec-only methods execution-apis does not cover). */
export function compileSchema(schema: Json): ValidateFunction {
  return ajv.compile(schema as object);
}

function validatorFor(method: string): ValidateFunction {
  let v = cache.get(method);
  if (!v) {
    v = compileSchema(resultSchema(method));
    cache.set(method, v);
  }
  return v;
}

/** Throws (with Ajv's messages and the value) unless `value` matches the schema. */
export function expectMatches(validate: ValidateFunction, value: unknown, label: string): void {
  if (!validate(value)) {
    const errors = (validate.errors ?? [])
      .slice(0, 10)
      .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
      .join('\n  ');
    throw new Error(`${label}: result does not match its schema:\n  ${errors}\nvalue: ${JSON.stringify(value)}`);
  }
}

/** Validates `value` against `method`'s result schema in execution-apis. */
export function expectResultSchema(method: string, value: unknown): void {
  expectMatches(validatorFor(method), value, method);
}
