import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * The argument types console.sol's functions send. Hardhat's console.sol (MIT) is the source of
 * the signature list below, taken as data: every `log(...)` overload up to four arguments, the
 * one-argument `log(T)` for each type, and the named `logUint`/`logInt`/`logString`/… forms.
 */
export type ConsoleArgType = 'uint256' | 'int256' | 'string' | 'bool' | 'address' | 'bytes' | `bytes${number}`;

/** Types the 2–4 argument `log(...)` overloads combine (console.sol's generator uses these four). */
const MULTI_ARG_TYPES: readonly ConsoleArgType[] = ['uint256', 'string', 'bool', 'address'];
const FIXED_BYTES: readonly ConsoleArgType[] = Array.from({ length: 32 }, (_, i) => `bytes${i + 1}` as ConsoleArgType);
const SINGLE_TYPES: readonly ConsoleArgType[] = [
  'uint256',
  'int256',
  'string',
  'bool',
  'address',
  'bytes',
  ...FIXED_BYTES,
];
const NAMED: readonly [string, ConsoleArgType][] = [
  ['logUint', 'uint256'],
  ['logInt', 'int256'],
  ['logString', 'string'],
  ['logBool', 'bool'],
  ['logAddress', 'address'],
  ['logBytes', 'bytes'],
  ...FIXED_BYTES.map((t): [string, ConsoleArgType] => [`logBytes${t.slice(5)}`, t]),
];

/** Every console.sol signature, as `name(type,…)` strings with the types they carry. */
export function consoleSignatures(): { signature: string; types: ConsoleArgType[] }[] {
  const out: { signature: string; types: ConsoleArgType[] }[] = [{ signature: 'log()', types: [] }];
  const add = (name: string, types: ConsoleArgType[]) => out.push({ signature: `${name}(${types.join(',')})`, types });
  for (const t of SINGLE_TYPES) add('log', [t]);
  for (const [name, t] of NAMED) add(name, [t]);
  let combos: ConsoleArgType[][] = MULTI_ARG_TYPES.map((t) => [t]);
  for (let n = 2; n <= 4; n++) {
    combos = combos.flatMap((c) => MULTI_ARG_TYPES.map((t) => [...c, t]));
    for (const c of combos) add('log', c);
  }
  return out;
}

/**
 * Selector → argument types. Older console.sol versions hashed `uint`/`int` instead of
 * `uint256`/`int256` (e.g. `log(uint)`); those selectors are recognised too. Built on first use
 * (about 700 keccaks), so a node that never sees a console call pays nothing.
 */
let table: Map<number, ConsoleArgType[]> | undefined;
export function consoleSelectorTable(): Map<number, ConsoleArgType[]> {
  if (table) return table;
  const t = new Map<number, ConsoleArgType[]>();
  const put = (signature: string, types: ConsoleArgType[]) => {
    const h = keccak_256(new TextEncoder().encode(signature));
    t.set(((h[0] << 24) | (h[1] << 16) | (h[2] << 8) | h[3]) >>> 0, types);
  };
  for (const { signature, types } of consoleSignatures()) {
    put(signature, types);
    const legacy = signature.replace(/\b(u?int)256\b/g, '$1');
    if (legacy !== signature) put(legacy, types);
  }
  table = t;
  return t;
}
