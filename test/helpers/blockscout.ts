/**
 * Blockscout's OpenAPI 10.2.6 response schemas (the subset in test/fixtures/blockscout, extracted
 * from ../shared/conformance by extract.py), compiled with Ajv, and the translation of our
 * responses into Blockscout 10's field names before they are validated.
 *
 * Documented exceptions, and why:
 * - Spec §2.5 names fields that Blockscout has since renamed; issue 3 says the spec's name is
 *   the one served. `toBlockscoutNames` renames them back (tx_hash → transaction_hash, tx_count →
 *   transactions_count, tx_fees → transaction_fees, block → block_number, tx_types, tx_tag,
 *   tx_burnt_fee, has_error_in_internal_txs, creation_tx_hash; a token's address → address_hash
 *   and holders → holders_count) and drops the spec fields Blockscout 10 no longer has
 *   (implementation_name, extra_data, state_root, has_decompiled_code, an address's tx_count).
 * - A smart contract's `abi` is JSON text in spec §2.5 (an array in Blockscout): parsed back, and
 *   the spec's fields Blockscout 10 lacks (optimizations_runs, is_vyper_contract,
 *   is_self_destructed, minimal_proxy_address_hash) dropped.
 * - Blockscout answers `to: null` for a contract creation (a transaction, or an internal `create`),
 *   but its generated 10.2.6 schema types `to` as a non-null Address: the schema is patched to
 *   allow null there. An internal transaction's spec name `block` is dropped (it carries Blockscout's
 *   `block_number` too). `raw-trace` is not validated against the schema: Blockscout's code writes
 *   `error`, creations' `address`/`code` and `suicide` entries its generated schema does not list.
 * - OpenAPI 3.0's `nullable` is rewritten as `anyOf [schema, null]` for Ajv.
 */
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import AjvModule from 'ajv';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const FIXTURE = new URL('../fixtures/blockscout/openapi-10.2.6-explorer.json', import.meta.url);

interface Fixture {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
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

// ajv is CommonJS: under NodeNext the default import is module.exports, whose `default` is the class.
const Ajv = (AjvModule as unknown as { default: typeof AjvModule }).default ?? AjvModule;

let ajv: InstanceType<typeof Ajv> | undefined;
let fixture: Fixture | undefined;
const compiled = new Map<string, ValidateFunction>();

function load(): { ajv: InstanceType<typeof Ajv>; fixture: Fixture } {
  if (!ajv || !fixture) {
    fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;
    const defs: JsonObject = {};
    for (const [name, schema] of Object.entries(fixture.components.schemas)) defs[name] = convert(schema);
    for (const name of ['Transaction', 'TransactionResponse', 'InternalTransaction']) {
      const props = (defs[name] as JsonObject).properties as JsonObject;
      props.to = { anyOf: [props.to, { type: 'null' }] };
    }
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/);
    ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:/i);
    ajv.addFormat('float', () => true);
    ajv.addSchema({ $id: 'blockscout', definitions: defs });
  }
  return { ajv, fixture };
}

/** Blockscout's path key for one of ours: `/blocks/12` → `/v2/blocks/{block_hash_or_number_param}`. */
export function blockscoutPath(path: string): string {
  const p = path.split('?')[0].replace(/^\/api\/v2/, '/v2');
  const rules: [RegExp, string][] = [
    [/^\/v2\/blocks\/[^/]+/, '/v2/blocks/{block_hash_or_number_param}'],
    [/^\/v2\/transactions\/0x[^/]+/, '/v2/transactions/{transaction_hash_param}'],
    [/^\/v2\/addresses\/0x[^/]+/, '/v2/addresses/{address_hash_param}'],
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
  const schema = f.paths[blockscoutPath(path)]?.[String(status)];
  if (schema === undefined) return undefined;
  const v = a.compile(convert(schema) as object);
  compiled.set(key, v);
  return v;
}

const rename = (o: JsonObject, from: string, to: string): void => {
  if (from in o) {
    o[to] = o[from];
    delete o[from];
  }
};

/** Our response with spec §2.5's names turned into Blockscout 10's (see the file comment). */
export function toBlockscoutNames(value: Json): Json {
  if (Array.isArray(value)) return value.map(toBlockscoutNames);
  if (value === null || typeof value !== 'object') return value;
  const o: JsonObject = {};
  for (const [k, v] of Object.entries(value)) o[k] = toBlockscoutNames(v);
  delete o.implementation_name;
  // An internal transaction carries spec §2.5's `block` beside Blockscout's `block_number`.
  if ('block_index' in o && 'block_number' in o) delete o.block;
  if ('parent_hash' in o && 'height' in o) {
    rename(o, 'tx_count', 'transactions_count');
    rename(o, 'tx_fees', 'transaction_fees');
    delete o.extra_data;
    delete o.state_root;
  } else if ('tx_types' in o) {
    rename(o, 'block', 'block_number');
    rename(o, 'tx_burnt_fee', 'transaction_burnt_fee');
    rename(o, 'tx_types', 'transaction_types');
    rename(o, 'tx_tag', 'transaction_tag');
    rename(o, 'has_error_in_internal_txs', 'has_error_in_internal_transactions');
  } else if ('holders' in o && 'circulating_market_cap' in o) {
    rename(o, 'address', 'address_hash');
    rename(o, 'holders', 'holders_count');
  } else if ('creation_tx_hash' in o) {
    rename(o, 'creation_tx_hash', 'creation_transaction_hash');
    delete o.tx_count;
    delete o.has_decompiled_code;
  } else if (('coin_balance' in o || 'date' in o) && 'tx_count' in o) {
    rename(o, 'tx_count', 'transactions_count');
  }
  if ('deployed_bytecode' in o && 'creation_status' in o) {
    // a smart contract: spec §2.5 carries `abi` as JSON text and names fields Blockscout 10 lacks
    if (typeof o.abi === 'string') o.abi = JSON.parse(o.abi);
    for (const k of ['optimizations_runs', 'is_vyper_contract', 'is_self_destructed', 'minimal_proxy_address_hash'])
      delete o[k];
  }
  if (('token_type' in o && 'total' in o) || ('topics' in o && 'data' in o)) rename(o, 'tx_hash', 'transaction_hash');
  return o;
}

/** Ajv's errors for a response of `path`, after translating names; empty when it conforms. */
export function conformanceErrors(path: string, body: unknown, status = 200): string[] {
  const v = responseValidator(path, status);
  if (!v) return [`no Blockscout 10.2.6 schema for ${blockscoutPath(path)} ${status}`];
  if (v(toBlockscoutNames(body as Json))) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}
