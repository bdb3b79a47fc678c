/**
 * Blockscout's OpenAPI 10.2.6 response schemas (the subset in test/fixtures/blockscout, extracted
 * from ../shared/conformance by extract.py), compiled with Ajv, against which our responses are
 * validated as served: no renaming. Every object keeps the schema's `additionalProperties: false`
 * and its required fields, so each Blockscout 10 name must be there with Blockscout's type.
 *
 * Spec §2.5's names are served too (issue 24: both, as Blockscout did during its own rename). The
 * schema is extended with them, not relaxed:
 * - `SPEC_ALIASES`: a spec name served beside Blockscout's with the same value (tx_count and
 *   transactions_count, block and block_number, …). The spec name is required, typed as
 *   Blockscout's, and the `x-same-as` keyword checks that both hold equal values.
 * - `SPEC_ONLY`: spec fields Blockscout 10 no longer has (a block's extra_data and state_root, an
 *   address reference's implementation_name, …): required, with the spec's type.
 *
 * Documented exceptions, and why:
 * - A smart contract's `abi` is JSON text in spec §2.5 and an array in Blockscout: one name, two
 *   types; the spec's string is served and the schema accepts a string holding a JSON array.
 * - Blockscout answers `to: null` for a contract creation (a transaction, or an internal `create`),
 *   but its generated 10.2.6 schema types `to` as a non-null Address: the schema is patched to
 *   allow null there. `raw-trace` is not validated against the schema: Blockscout's code writes
 *   `error`, creations' `address`/`code` and `suicide` entries its generated schema does not list.
 * - OpenAPI 3.0's `nullable` is rewritten as `anyOf [schema, null]` for Ajv.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { ValidateFunction } from 'ajv';
import AjvModule from 'ajv';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const FIXTURE = new URL('../fixtures/blockscout/openapi-10.2.6-explorer.json', import.meta.url);

interface Fixture {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
}

const TX_ALIASES: [string, string][] = [
  ['block', 'block_number'],
  ['tx_burnt_fee', 'transaction_burnt_fee'],
  ['tx_types', 'transaction_types'],
  ['tx_tag', 'transaction_tag'],
  ['has_error_in_internal_txs', 'has_error_in_internal_transactions'],
];
const TOKEN_ALIASES: [string, string][] = [
  ['address', 'address_hash'],
  ['holders', 'holders_count'],
];

/** Spec §2.5's name → Blockscout 10's, served side by side with one value, per component schema. */
const BLOCK_ALIASES: [string, string][] = [
  ['tx_count', 'transactions_count'],
  ['tx_fees', 'transaction_fees'],
];
const BLOCK_ONLY: Record<string, Json> = {
  extra_data: { type: 'string', pattern: '^0x([0-9a-fA-F]{2})*$' },
  state_root: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' },
};

export const SPEC_ALIASES: Record<string, [spec: string, blockscout: string][]> = {
  Block: BLOCK_ALIASES,
  BlockResponse: BLOCK_ALIASES,
  Transaction: TX_ALIASES,
  TransactionResponse: TX_ALIASES,
  Token: TOKEN_ALIASES,
  TokenResponse: TOKEN_ALIASES,
  TokenTransfer: [['tx_hash', 'transaction_hash']],
  Log: [['tx_hash', 'transaction_hash']],
  InternalTransaction: [['block', 'block_number']],
  AddressResponse: [['creation_tx_hash', 'creation_transaction_hash']],
  SmartContract: [
    ['optimizations_runs', 'optimization_runs'],
    ['tx_count', 'transactions_count'],
  ],
  /** The items of /addresses (inline in Blockscout's path schema). */
  '/v2/addresses items': [['tx_count', 'transactions_count']],
};

const nullableString: Json = { anyOf: [{ type: 'string' }, { type: 'null' }] };

/**
 * Spec §2.5 fields Blockscout 10 dropped, with the spec's types, per component schema. Besides
 * these, every address object (a schema with `hash`, `is_contract` and `implementations`, named or
 * inline) gets the spec's `implementation_name`.
 */
export const SPEC_ONLY: Record<string, Record<string, Json>> = {
  AddressResponse: { tx_count: { type: 'string', pattern: '^[0-9]+$' }, has_decompiled_code: { type: 'boolean' } },
  Block: BLOCK_ONLY,
  BlockResponse: BLOCK_ONLY,
  SmartContract: {
    is_vyper_contract: { type: 'boolean' },
    is_self_destructed: { type: 'boolean' },
    minimal_proxy_address_hash: nullableString,
  },
};

/** Adds spec names to one converted object schema: required, typed, aliases tied to their twin. */
function extend(schema: JsonObject, key: string): void {
  const props = schema.properties as JsonObject;
  const required = (schema.required ?? []) as string[];
  for (const [spec, blockscout] of SPEC_ALIASES[key] ?? []) {
    props[spec] = { allOf: [props[blockscout]], 'x-same-as': blockscout };
    if (required.includes(blockscout)) required.push(spec);
  }
  for (const [name, type] of Object.entries(SPEC_ONLY[key] ?? {})) {
    props[name] = type;
    // A smart contract detail's fields are all optional in Blockscout (unverified contracts show few).
    if (key !== 'SmartContract') required.push(name);
  }
  if (required.length > 0) schema.required = required;
}

/** Adds the spec's `implementation_name` to every address object schema below `node`. */
function addImplementationName(node: Json): void {
  if (Array.isArray(node)) for (const v of node) addImplementationName(v);
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  const props = node.properties as JsonObject | undefined;
  if (props && 'hash' in props && 'is_contract' in props && 'implementations' in props) {
    props.implementation_name = nullableString;
    node.required = [...((node.required ?? []) as string[]), 'implementation_name'];
  }
  for (const v of Object.values(node)) addImplementationName(v);
}

/** OpenAPI 3.0 → JSON Schema: `nullable` becomes a null alternative; refs point into one registered document. */
function convert(node: Json): Json {
  if (Array.isArray(node)) return node.map(convert);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'nullable' || k === 'x-struct' || k === 'x-validate' || k === 'example') continue;
    if (k === '$ref' && typeof v === 'string')
      out.$ref = v.replace('#/components/schemas/', 'blockscout#/definitions/');
    else out[k] = convert(v);
  }
  return node.nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

/** The object schema inside a converted `nullable` wrapper (or the schema itself). */
const objectOf = (schema: Json): JsonObject => {
  const o = schema as JsonObject;
  return Array.isArray(o.anyOf) ? (o.anyOf[0] as JsonObject) : o;
};

// ajv is CommonJS: under NodeNext the default import is module.exports, whose `default` is the class.
const Ajv = (AjvModule as unknown as { default: typeof AjvModule }).default ?? AjvModule;

let ajv: InstanceType<typeof Ajv> | undefined;
let fixture: Fixture | undefined;
const compiled = new Map<string, ValidateFunction>();

function load(): { ajv: InstanceType<typeof Ajv>; fixture: Fixture } {
  if (!ajv || !fixture) {
    fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;
    const defs: JsonObject = {};
    for (const [name, schema] of Object.entries(fixture.components.schemas)) {
      defs[name] = convert(schema);
      if (SPEC_ALIASES[name] || SPEC_ONLY[name]) extend(objectOf(defs[name]), name);
      addImplementationName(defs[name]);
    }
    for (const name of ['Transaction', 'TransactionResponse', 'InternalTransaction']) {
      const props = (defs[name] as JsonObject).properties as JsonObject;
      props.to = { anyOf: [props.to, { type: 'null' }] };
    }
    const contract = (defs.SmartContract as JsonObject).properties as JsonObject;
    contract.abi = { anyOf: [contract.abi, { type: 'string', pattern: '^\\[' }] };
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/);
    ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
    ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:/i);
    ajv.addFormat('float', () => true);
    ajv.addKeyword({
      keyword: 'x-same-as',
      schemaType: 'string',
      errors: false,
      // A spec alias holds exactly its Blockscout twin's value.
      validate: (twin: string, data: unknown, _schema?: unknown, cxt?: { parentData?: Record<string, unknown> }) =>
        cxt?.parentData !== undefined && isDeepStrictEqual(data, cxt.parentData[twin]),
    });
    ajv.addSchema({ $id: 'blockscout', definitions: defs });
  }
  return { ajv, fixture };
}

/** Blockscout's path key for one of ours: `/blocks/12` → `/v2/blocks/{block_hash_or_number_param}`. */
export function blockscoutPath(path: string): string {
  const p = path.split('?')[0].replace(/^\/api\/v2/, '/v2');
  const rules: [RegExp, string][] = [
    [/^\/v2\/blocks\/[^/]+/, '/v2/blocks/{block_hash_or_number_param}'],
    [/^\/v2\/transactions\/stats$/, '/v2/transactions/stats'],
    [/^\/v2\/transactions\/0x[^/]+/, '/v2/transactions/{transaction_hash_param}'],
    [/^\/v2\/addresses\/0x[^/]+/, '/v2/addresses/{address_hash_param}'],
    [/^\/v2\/tokens\/0x[^/]+\/instances\/[0-9]+/, '/v2/tokens/{address_hash_param}/instances/{token_id_param}'],
    [/^\/v2\/tokens\/0x[^/]+/, '/v2/tokens/{address_hash_param}'],
    [/^\/v2\/tokens$/, '/v2/tokens/'],
    [/^\/v2\/smart-contracts\/0x[^/]+/, '/v2/smart-contracts/{address_hash_param}'],
    [/^\/v2\/smart-contracts$/, '/v2/smart-contracts/'],
  ];
  for (const [re, to] of rules) if (re.test(p)) return p.replace(re, to);
  return p;
}

/** The compiled 200 (or other status) schema of a Blockscout path, or undefined when the fixture has none. */
export function responseValidator(path: string, status = 200): ValidateFunction | undefined {
  const key = `${blockscoutPath(path)} ${status}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const { ajv: a, fixture: f } = load();
  const raw = f.paths[blockscoutPath(path)]?.[String(status)];
  if (raw === undefined) return undefined;
  const schema = convert(raw) as JsonObject;
  if (blockscoutPath(path) === '/v2/addresses' && status === 200) {
    const item = ((schema.properties as JsonObject).items as JsonObject).items as JsonObject;
    extend(item, '/v2/addresses items');
  }
  addImplementationName(schema);
  const v = a.compile(schema);
  compiled.set(key, v);
  return v;
}

/** Ajv's errors for a response of `path` as served; empty when it conforms. */
export function conformanceErrors(path: string, body: unknown, status = 200): string[] {
  const v = responseValidator(path, status);
  if (!v) return [`no Blockscout 10.2.6 schema for ${blockscoutPath(path)} ${status}`];
  if (v(body)) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}
