import { format } from 'node:util';
import { type ConsoleArgType, consoleSelectorTable } from './consoleSignatures.js';

/** The address console.sol calls: the bytes of "console.log". */
export const CONSOLE_ADDRESS = '0x000000000000000000636f6e736f6c652e6c6f67';

const WORD = 32;
const TWO_255 = 1n << 255n;
const TWO_256 = 1n << 256n;

function hex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}

function word(data: Uint8Array, at: number): bigint {
  if (at + WORD > data.length) throw new RangeError('short calldata');
  return BigInt(hex(data.subarray(at, at + WORD)));
}

/** A dynamic value (string, bytes): the offset word at `head`, then its length and contents. */
function tail(data: Uint8Array, head: number): Uint8Array {
  const offset = word(data, head);
  if (offset > BigInt(data.length)) throw new RangeError('offset out of range');
  const length = word(data, Number(offset));
  const start = Number(offset) + WORD;
  if (BigInt(start) + length > BigInt(data.length)) throw new RangeError('length out of range');
  return data.subarray(start, start + Number(length));
}

/** One argument as the text Hardhat gives it: decimal numbers, "true"/"false", lowercase hex. */
function decodeArg(data: Uint8Array, type: ConsoleArgType, head: number): string {
  switch (type) {
    case 'uint256':
      return word(data, head).toString(10);
    case 'int256': {
      const v = word(data, head);
      return (v >= TWO_255 ? v - TWO_256 : v).toString(10);
    }
    case 'bool':
      return word(data, head) !== 0n ? 'true' : 'false';
    case 'address':
      return `0x${word(data, head).toString(16).padStart(40, '0').slice(-40)}`;
    case 'string':
      return new TextDecoder().decode(tail(data, head));
    case 'bytes':
      return hex(tail(data, head));
    default: {
      const n = Number(type.slice(5));
      if (head + WORD > data.length) throw new RangeError('short calldata');
      return hex(data.subarray(head, head + n));
    }
  }
}

/**
 * The arguments of a call to the console address, each as text, or undefined when the selector
 * is not console.sol's or the data does not decode (such a call is then just a call).
 */
export function decodeConsoleCall(calldata: Uint8Array): string[] | undefined {
  if (calldata.length < 4) return undefined;
  const selector = ((calldata[0] << 24) | (calldata[1] << 16) | (calldata[2] << 8) | calldata[3]) >>> 0;
  const types = consoleSelectorTable().get(selector);
  if (!types) return undefined;
  const data = calldata.subarray(4);
  try {
    return types.map((t, i) => decodeArg(data, t, i * WORD));
  } catch {
    return undefined;
  }
}

/**
 * The line Hardhat prints: Node's util.format over the arguments, the first being the format
 * string. `%d` and `%i` there become `%s` (numbers are decimal text and may exceed a double);
 * an escaped `%%d` stays as it is.
 */
export function formatConsoleArgs(args: readonly string[]): string {
  if (args.length === 0) return '';
  const [first, ...rest] = args;
  const fmt = first.replace(/((?<!%)(?:%%)*)%[di]/g, '$1%s');
  return format(fmt, ...rest);
}
