// A minimal ABI encoder for write calls, so the bundle carries no ABI library: static types
// (uintN, intN, address, bool, bytesN) and the dynamic string and bytes. Arrays and tuples throw,
// and the form says so. The selector comes from /api/v2 (methods-write gives method_id), so no keccak here.

const word = (hex: string) => hex.padStart(64, '0');
const padRight = (hex: string) => hex.padEnd(Math.ceil(hex.length / 64) * 64, '0');

function integer(type: string, text: string): string {
  const t = text.trim();
  if (!/^-?(0x[0-9a-fA-F]+|\d+)$/.test(t)) throw new Error(`${JSON.stringify(text)} is not an integer`);
  const bits = Number(type.replace(/^u?int/, '') || 256);
  const negative = t.startsWith('-');
  const v = BigInt(negative ? t.slice(1) : t) * (negative ? -1n : 1n);
  const signed = type.startsWith('int');
  const min = signed ? -(1n << BigInt(bits - 1)) : 0n;
  const max = (signed ? 1n << BigInt(bits - 1) : 1n << BigInt(bits)) - 1n;
  if (v < min || v > max) throw new Error(`${t} does not fit ${type}`);
  // Two's complement over the whole word for negative ints.
  return word((v < 0n ? (1n << 256n) + v : v).toString(16));
}

function hexBytes(text: string): string {
  const t = text.trim();
  if (!/^0x([0-9a-fA-F]{2})*$/.test(t)) throw new Error(`${JSON.stringify(text)} is not 0x-prefixed hex bytes`);
  return t.slice(2).toLowerCase();
}

function utf8Hex(text: string): string {
  return [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Encodes one static value as its 32-byte word, or null when the type is dynamic. */
function staticWord(type: string, text: string): string | null {
  if (/^u?int\d*$/.test(type)) return integer(type, text);
  if (type === 'address') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(text.trim())) throw new Error(`${JSON.stringify(text)} is not an address`);
    return word(text.trim().slice(2).toLowerCase());
  }
  if (type === 'bool') {
    if (text !== 'true' && text !== 'false') throw new Error(`${JSON.stringify(text)} is not true or false`);
    return word(text === 'true' ? '1' : '0');
  }
  const fixed = /^bytes(\d+)$/.exec(type);
  if (fixed) {
    const hex = hexBytes(text);
    if (hex.length / 2 > Number(fixed[1])) throw new Error(`${text} is longer than ${type}`);
    return hex.padEnd(64, '0');
  }
  if (type === 'string' || type === 'bytes') return null;
  throw new Error(`${type} is not supported here (static types, string and bytes only)`);
}

/** True when the form can encode every input type of a method. */
export function canEncode(types: readonly string[]): boolean {
  return types.every((t) => /^(u?int\d*|address|bool|bytes\d*|string)$/.test(t));
}

/** The ABI encoding (hex, no 0x) of `values` as `types`: heads, then the tails of string and bytes. */
export function encodeArgs(types: readonly string[], values: readonly string[]): string {
  const heads: string[] = [];
  const tails: string[] = [];
  let tailOffset = types.length * 32;
  types.forEach((type, i) => {
    const text = values[i] ?? '';
    const head = staticWord(type, text);
    if (head !== null) {
      heads.push(head);
      return;
    }
    const data = type === 'string' ? utf8Hex(text) : hexBytes(text);
    const tail = word((data.length / 2).toString(16)) + padRight(data);
    heads.push(word(tailOffset.toString(16)));
    tails.push(tail);
    tailOffset += tail.length / 2;
  });
  return heads.join('') + tails.join('');
}
