import * as AbiError from 'ox/AbiError';
import * as AbiFunction from 'ox/AbiFunction';
import * as AbiParameters from 'ox/AbiParameters';
import * as Address from 'ox/Address';
import type { KnownContracts } from './KnownContracts.js';

type Hex = `0x${string}`;

/** A parameter of a JSON ABI (solc's shape). */
interface Param {
  name?: string;
  type: string;
  components?: readonly Param[];
}
interface AbiItem {
  type: string;
  name?: string;
  inputs?: readonly Param[];
}

const ERROR_SELECTOR = '0x08c379a0';
const PANIC_SELECTOR = '0x4e487b71';

const hexOf = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`;

/** A custom error named from the reverting contract's ABI, and where it was raised. */
export interface NamedCustomError {
  /** Hardhat's form: `Name(42, "text", "0xAbC…", true, [1, 2])`. */
  error: string;
  /** `Boom.fail at 0x5FbDB…` (the function when the call's selector is in the ABI), then `, Boom.sol:11` when the source line is known. */
  where: string;
}

/**
 * Names the custom error in `data` with the ABI of the contract called (`to`) when a resolver
 * knows it; undefined for reason strings, panics, empty data, unknown contracts or selectors
 * (the caller keeps the raw selector then). Only the called contract's ABI is searched: an
 * error raised by a contract it calls names itself only if the called contract declares it.
 */
export function nameCustomError(
  known: KnownContracts | undefined,
  to: Uint8Array | undefined,
  input: Uint8Array,
  data: Uint8Array,
  /** The called contract's last pcs, its REVERT first, for the source line when its source map is known. */
  pcs?: readonly number[],
): NamedCustomError | undefined {
  if (!known || !to || data.length < 4) return undefined;
  const selector = hexOf(data.subarray(0, 4));
  if (selector === ERROR_SELECTOR || selector === PANIC_SELECTOR) return undefined;
  const address = hexOf(to);
  const contract = known.lookup(address);
  if (!contract) return undefined;
  const items = contract.abi as readonly AbiItem[];
  const err = items.find((i) => i?.type === 'error' && safeSelector(i) === selector);
  if (!err) return undefined;
  let values: readonly unknown[];
  try {
    values = AbiParameters.decode((err.inputs ?? []) as never, hexOf(data.subarray(4))) as readonly unknown[];
  } catch {
    return undefined;
  }
  const line = pcs === undefined ? undefined : contract.sourceLine?.(pcs);
  const fnSelector = input.length >= 4 ? hexOf(input.subarray(0, 4)) : undefined;
  const fn = fnSelector ? items.find((i) => i?.type === 'function' && safeSelector(i) === fnSelector) : undefined;
  return {
    error: `${err.name ?? ''}(${formatValues(err.inputs ?? [], values)})`,
    where: `${contract.name}${fn?.name ? `.${fn.name}` : ''} at ${Address.checksum(address)}${line ? `, ${line}` : ''}`,
  };
}

function safeSelector(item: AbiItem): Hex | undefined {
  try {
    return item.type === 'error' ? AbiError.getSelector(item as never) : AbiFunction.getSelector(item as never);
  } catch {
    return undefined;
  }
}

/**
 * Values as Hardhat 2.29 prints a custom error's arguments (checked against its node): numbers
 * and booleans bare, strings, addresses (checksummed) and bytes in double quotes (no escaping),
 * arrays and tuples in brackets, comma-separated.
 */
function formatValues(params: readonly Param[], values: readonly unknown[]): string {
  return params.map((p, i) => formatValue(p, values[i])).join(', ');
}

function formatValue(p: Param, v: unknown): string {
  const array = /\[\d*\]$/.exec(p.type);
  if (array && Array.isArray(v)) {
    const inner = { ...p, type: p.type.slice(0, -array[0].length) };
    return `[${v.map((x) => formatValue(inner, x)).join(', ')}]`;
  }
  if (p.type === 'tuple') {
    const comps = p.components ?? [];
    const vals = Array.isArray(v) ? v : comps.map((c, i) => (v as Record<string, unknown>)[c.name || String(i)]);
    return `[${formatValues(comps, vals)}]`;
  }
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (p.type === 'address' && typeof v === 'string') return `"${Address.checksum(v as Hex)}"`;
  return `"${String(v)}"`;
}
