import * as AbiError from 'ox/AbiError';
import * as AbiEvent from 'ox/AbiEvent';
import * as AbiFunction from 'ox/AbiFunction';
import * as AbiParameters from 'ox/AbiParameters';

type Hex = `0x${string}`;

/** A parameter of a JSON ABI (solc's shape). */
export interface Param {
  name?: string;
  type: string;
  internalType?: string;
  indexed?: boolean;
  components?: readonly Param[];
}

/** An item of a JSON ABI. */
export interface AbiEntry {
  type: string;
  name?: string;
  inputs?: readonly Param[];
  outputs?: readonly Param[];
  stateMutability?: string;
  anonymous?: boolean;
  constant?: boolean;
}

const hexOf = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`;
const asParams = (p: readonly Param[] | undefined) => (p ?? []) as unknown as AbiParameters.AbiParameters;

/** `uint256`, `(address,uint256)[]`: a parameter's canonical type. */
export function canonicalType(p: Param): string {
  if (!p.type.startsWith('tuple')) return p.type;
  return `(${(p.components ?? []).map(canonicalType).join(',')})${p.type.slice(5)}`;
}

/** `transfer(address to, uint256 amount)`, `Transfer(address indexed from, …)`: Blockscout's `method_call`. */
export function methodCall(item: AbiEntry): string {
  const params = (item.inputs ?? []).map(
    (p) => `${canonicalType(p)}${p.indexed ? ' indexed' : ''}${p.name ? ` ${p.name}` : ''}`,
  );
  return `${item.name ?? ''}(${params.join(', ')})`;
}

/** 4-byte selector of a function or error, 32-byte topic of an event, as hex. */
export function selectorOf(item: AbiEntry): Hex {
  const sig = item as never;
  if (item.type === 'event') return AbiEvent.getSelector(sig);
  if (item.type === 'error') return AbiError.getSelector(sig);
  return AbiFunction.getSelector(sig);
}

/**
 * A decoded value as Blockscout renders it: numbers as decimal strings, booleans as `"true"`,
 * bytes and addresses as hex, arrays and tuples as arrays.
 */
export function render(p: Param, v: unknown): unknown {
  const array = /\[\d*\]$/.exec(p.type);
  if (array && Array.isArray(v)) {
    const inner = { ...p, type: p.type.slice(0, -array[0].length) };
    return v.map((x) => render(inner, x));
  }
  if (p.type === 'tuple') {
    const comps = p.components ?? [];
    const values = Array.isArray(v) ? v : comps.map((c, i) => (v as Record<string, unknown>)[c.name || String(i)]);
    return comps.map((c, i) => render(c, values[i]));
  }
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Uint8Array) return hexOf(v);
  return v as string;
}

export interface DecodedParameter {
  name: string;
  type: string;
  value: unknown;
}

export interface DecodedCall {
  method_call: string;
  method_id: string;
  parameters: DecodedParameter[];
}

function decodeParams(params: readonly Param[], data: Hex): DecodedParameter[] {
  const values = AbiParameters.decode(asParams(params), data) as readonly unknown[];
  return params.map((p, i) => ({ name: p.name ?? '', type: canonicalType(p), value: render(p, values[i]) }));
}

function byKind(abi: readonly unknown[], type: string): AbiEntry[] {
  return (abi as AbiEntry[]).filter((i) => i && i.type === type);
}

/** Functions, errors and events of an ABI by selector (topic for events), computed once per ABI. */
const indexes = new WeakMap<readonly unknown[], Map<string, AbiEntry>>();
function bySelector(
  abi: readonly unknown[],
  kind: 'function' | 'error' | 'event',
  selector: string,
): AbiEntry | undefined {
  let index = indexes.get(abi);
  if (!index) {
    index = new Map();
    for (const item of abi as AbiEntry[]) {
      if (!item || (item.type !== 'function' && item.type !== 'error' && item.type !== 'event')) continue;
      if (item.type === 'event' && item.anonymous) continue;
      const key = `${item.type}:${selectorOf(item)}`;
      if (!index.has(key)) index.set(key, item);
    }
    indexes.set(abi, index);
  }
  return index.get(`${kind}:${selector.toLowerCase()}`);
}

/** The function of `abi` with this 4-byte selector (`0x…` or without prefix). */
export function functionBySelector(abi: readonly unknown[], selector: string): AbiEntry | undefined {
  return bySelector(abi, 'function', `0x${selector.replace(/^0x/, '')}`);
}

/** `decoded_input` of a call: the function its selector names, with decoded arguments; null when none does. */
export function decodeInput(abi: readonly unknown[], data: Uint8Array): DecodedCall | null {
  if (data.length < 4) return null;
  const selector = hexOf(data.subarray(0, 4));
  const fn = functionBySelector(abi, selector);
  if (!fn) return null;
  try {
    return {
      method_call: methodCall(fn),
      method_id: selector.slice(2),
      parameters: decodeParams(fn.inputs ?? [], hexOf(data.subarray(4))),
    };
  } catch {
    return null;
  }
}

/** A custom error (or `Error(string)` / `Panic(uint256)` declared in the ABI) decoded from revert data. */
export function decodeError(abi: readonly unknown[], data: Uint8Array): DecodedCall | null {
  if (data.length < 4) return null;
  const selector = hexOf(data.subarray(0, 4));
  const err = bySelector(abi, 'error', selector);
  if (!err) return null;
  try {
    return {
      method_call: methodCall(err),
      method_id: selector.slice(2),
      parameters: decodeParams(err.inputs ?? [], hexOf(data.subarray(4))),
    };
  } catch {
    return null;
  }
}

export interface DecodedLog extends DecodedCall {
  parameters: (DecodedParameter & { indexed: boolean })[];
}

/**
 * A log decoded with the emitter's ABI: indexed parameters from the topics (dynamic ones stay
 * their hash, as the log holds nothing else), the rest from the data.
 */
export function decodeLog(abi: readonly unknown[], topics: readonly Uint8Array[], data: Uint8Array): DecodedLog | null {
  const topic0 = topics[0] ? hexOf(topics[0]) : undefined;
  if (!topic0) return null;
  const event = bySelector(abi, 'event', topic0);
  if (!event) return null;
  const inputs = event.inputs ?? [];
  const indexed = inputs.filter((p) => p.indexed);
  if (indexed.length !== topics.length - 1) return null;
  try {
    const plain = inputs.filter((p) => !p.indexed);
    const dataValues = AbiParameters.decode(asParams(plain), hexOf(data)) as readonly unknown[];
    let t = 1;
    let d = 0;
    const parameters = inputs.map((p) => {
      let value: unknown;
      if (p.indexed) {
        const topic = hexOf(topics[t++]);
        const dynamic = p.type === 'string' || p.type === 'bytes' || p.type.startsWith('tuple') || p.type.endsWith(']');
        value = dynamic ? topic : render(p, (AbiParameters.decode(asParams([p]), topic) as readonly unknown[])[0]);
      } else value = render(p, dataValues[d++]);
      return { name: p.name ?? '', type: canonicalType(p), value, indexed: p.indexed === true };
    });
    return { method_call: methodCall(event), method_id: topic0.slice(2, 10), parameters };
  } catch {
    return null;
  }
}

const READ = new Set(['view', 'pure']);

/** Read methods: view and pure functions (and old `constant` ones). */
export function readFunctions(abi: readonly unknown[]): AbiEntry[] {
  return byKind(abi, 'function').filter((f) => READ.has(f.stateMutability ?? '') || f.constant === true);
}

/** Write methods: every other function, plus fallback and receive. */
export function writeFunctions(abi: readonly unknown[]): AbiEntry[] {
  return (abi as AbiEntry[]).filter(
    (i) =>
      (i.type === 'function' && !(READ.has(i.stateMutability ?? '') || i.constant === true)) ||
      i.type === 'fallback' ||
      i.type === 'receive',
  );
}

/**
 * Turns `query-read-method` arguments (JSON: strings, numbers, booleans, nested arrays) into
 * values ox encodes; throws naming the argument that does not fit its type.
 */
export function coerceArgs(inputs: readonly Param[], args: readonly unknown[]): unknown[] {
  if (args.length !== inputs.length)
    throw new Error(`expected ${inputs.length} argument${inputs.length === 1 ? '' : 's'}, got ${args.length}`);
  return inputs.map((p, i) => coerce(p, args[i], p.name || `#${i}`));
}

function coerce(p: Param, v: unknown, where: string): unknown {
  const array = /\[(\d*)\]$/.exec(p.type);
  if (array) {
    const list = typeof v === 'string' && v.trim().startsWith('[') ? (JSON.parse(v) as unknown) : v;
    if (!Array.isArray(list)) throw new Error(`${where}: ${p.type} needs an array`);
    const inner = { ...p, type: p.type.slice(0, -array[0].length) };
    return list.map((x, j) => coerce(inner, x, `${where}[${j}]`));
  }
  if (p.type === 'tuple') {
    const comps = p.components ?? [];
    if (!Array.isArray(v) || v.length !== comps.length) throw new Error(`${where}: tuple needs ${comps.length} values`);
    return comps.map((c, j) => coerce(c, v[j], `${where}.${c.name || j}`));
  }
  if (/^u?int\d*$/.test(p.type)) {
    if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
    if (typeof v === 'string' && /^-?(0x[0-9a-fA-F]+|\d+)$/.test(v.trim())) return BigInt(v.trim());
    throw new Error(`${where}: ${JSON.stringify(v)} is not an integer`);
  }
  if (p.type === 'bool') {
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    throw new Error(`${where}: ${JSON.stringify(v)} is not a bool`);
  }
  if (typeof v !== 'string') throw new Error(`${where}: ${p.type} needs a string`);
  return v;
}

/** ABI-encodes a call of `fn`; throws (with ox's text) when the values do not fit. */
export function encodeCall(fn: AbiEntry, args: readonly unknown[]): Hex {
  const values = coerceArgs(fn.inputs ?? [], args);
  const encoded = AbiParameters.encode(asParams(fn.inputs), values as never);
  return `${selectorOf(fn)}${encoded.slice(2)}` as Hex;
}

/** Decodes a call's return data into `{ type, value }` outputs. */
export function decodeOutputs(fn: AbiEntry, data: Hex): { type: string; value: unknown }[] {
  const outputs = fn.outputs ?? [];
  const values = AbiParameters.decode(asParams(outputs), data) as readonly unknown[];
  return outputs.map((p, i) => ({ type: canonicalType(p), value: render(p, values[i]) }));
}
