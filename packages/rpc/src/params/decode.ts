import { Address } from '@ethereumjs/util';

/**
 * Decoding failure below the parameter level. Parsers catch it and turn it into
 * `invalidParams("invalid argument <i> (<name>): <path>: <message>")`.
 * Messages follow geth's hexutil / encoding/json texts so clients see familiar errors.
 */
export class DecodeError extends Error {
  /** Field path inside the parameter, outermost first (`["accessList", "0", "address"]`). */
  readonly path: string[];

  constructor(message: string, path: string[] = []) {
    super(message);
    this.name = 'DecodeError';
    this.path = path;
  }

  /** The message with its field path, e.g. `field "accessList[0].address": invalid hex string`. */
  describe(): string {
    if (this.path.length === 0) return this.message;
    let p = '';
    for (const seg of this.path) p += /^\d+$/.test(seg) ? `[${seg}]` : p === '' ? seg : `.${seg}`;
    return `field "${p}": ${this.message}`;
  }
}

/** Runs `fn`, prefixing any DecodeError it throws with the field `key`. */
export function atField<T>(key: string | number, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof DecodeError) throw new DecodeError(e.message, [String(key), ...e.path]);
    throw e;
  }
}

/** JSON kind of a value, spelled like Go's encoding/json does in type errors. */
export function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return 'object';
}

/** `json: cannot unmarshal <kind> into Go value of type <goType>`. */
export function typeError(v: unknown, goType: string): DecodeError {
  return new DecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type ${goType}`);
}

const nonString = (goType: string) =>
  new DecodeError(`json: cannot unmarshal non-string into Go value of type ${goType}`);

const has0x = (s: string) => s.length >= 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X');
const HEX_RE = /^[0-9a-fA-F]*$/;

// geth hexutil error texts
export const HexErrors = {
  empty: 'empty hex string',
  syntax: 'invalid hex string',
  missingPrefix: 'hex string without 0x prefix',
  oddLength: 'hex string of odd length',
  emptyNumber: 'hex string "0x"',
  leadingZero: 'hex number with leading zero digits',
  uint64Range: 'hex number > 64 bits',
  big256Range: 'hex number > 256 bits',
} as const;

/** The value of a (valid) hex digit's char code. */
const nibble = (c: number) => (c <= 57 ? c - 48 : c <= 70 ? c - 55 : c - 87);

/** Past this many hex digits Node's decoder wins over the loop (its call costs less than the bytes). */
const NATIVE_HEX_DIGITS = 160;

/**
 * Unchecked: `hex` must be even-length and valid (no slice and parseInt per byte). Long input
 * (a raw transaction, call data) is decoded by Node's hex codec straight into the result's
 * memory (a byte array that large keeps its bytes outside the object, so reaching them moves
 * nothing): the per-digit loop was ~7 µs of a fresh node's transfer before V8 compiled it.
 */
function hexToBytesUnchecked(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  if (hex.length > NATIVE_HEX_DIGITS) {
    Buffer.from(out.buffer, out.byteOffset, out.length).write(hex, 'hex');
    return out;
  }
  for (let i = 0, j = 0; j < out.length; i += 2, j++)
    out[j] = nibble(hex.charCodeAt(i)) * 16 + nibble(hex.charCodeAt(i + 1));
  return out;
}

const HEX_ERROR_TEXTS: ReadonlySet<string> = new Set(Object.values(HexErrors));

/**
 * geth wraps hexutil decoding errors of JSON values as
 * `json: cannot unmarshal <error> into Go value of type <T>` (wrapTypeError).
 */
function wrapHexErrors<T>(goType: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof DecodeError && HEX_ERROR_TEXTS.has(e.message)) {
      throw new DecodeError(`json: cannot unmarshal ${e.message} into Go value of type ${goType}`, e.path);
    }
    throw e;
  }
}

/** checkNumberText from geth: returns the digits after 0x. */
function numberDigits(v: string): string {
  if (v.length === 0) throw new DecodeError(HexErrors.empty);
  if (!has0x(v)) throw new DecodeError(HexErrors.missingPrefix);
  const raw = v.slice(2);
  if (raw.length === 0) throw new DecodeError(HexErrors.emptyNumber);
  if (raw.length > 1 && raw[0] === '0') throw new DecodeError(HexErrors.leadingZero);
  return raw;
}

/** hexutil.DecodeUint64 (unwrapped errors, as rpc.BlockNumber reports them). */
export function parseHexUint64(v: string): bigint {
  const raw = numberDigits(v);
  if (raw.length > 16) throw new DecodeError(HexErrors.uint64Range);
  if (!HEX_RE.test(raw)) throw new DecodeError(HexErrors.syntax);
  return BigInt(`0x${raw}`);
}

/** QUANTITY up to 256 bits (geth hexutil.Big): `0x` + hex, no leading zeros, not `0x`. */
export function decodeQuantity(v: unknown): bigint {
  const T = '*hexutil.Big';
  if (typeof v !== 'string') throw nonString(T);
  return wrapHexErrors(T, () => {
    const raw = numberDigits(v);
    if (raw.length > 64) throw new DecodeError(HexErrors.big256Range);
    if (!HEX_RE.test(raw)) throw new DecodeError(HexErrors.syntax);
    return BigInt(`0x${raw}`);
  });
}

/** QUANTITY up to 64 bits (geth hexutil.Uint64), as a bigint. */
export function decodeQuantityU64(v: unknown): bigint {
  const T = 'hexutil.Uint64';
  if (typeof v !== 'string') throw nonString(T);
  return wrapHexErrors(T, () => parseHexUint64(v));
}

/** QUANTITY that fits a JS safe integer (indexes, counts). */
export function decodeQuantityNumber(v: unknown): number {
  const n = decodeQuantityU64(v);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new DecodeError('hex number > 53 bits');
  return Number(n);
}

/** DATA of any (even) length (geth hexutil.Bytes). An empty string decodes to empty bytes, as in geth. */
export function decodeData(v: unknown): Uint8Array {
  const T = 'hexutil.Bytes';
  if (typeof v !== 'string') throw nonString(T);
  if (v.length === 0) return new Uint8Array(0);
  return wrapHexErrors(T, () => {
    if (!has0x(v)) throw new DecodeError(HexErrors.missingPrefix);
    const raw = v.slice(2);
    if (raw.length % 2 !== 0) throw new DecodeError(HexErrors.oddLength);
    if (!HEX_RE.test(raw)) throw new DecodeError(HexErrors.syntax);
    return hexToBytesUnchecked(raw);
  });
}

/** Fixed-size hex text as a Go map key or UnmarshalText sees it (errors not wrapped). */
export function decodeFixedText(v: string, length: number, goType = `[${length}]byte`): Uint8Array {
  let raw = v;
  if (v.length > 0) {
    if (!has0x(v)) throw new DecodeError(HexErrors.missingPrefix);
    raw = v.slice(2);
    if (raw.length % 2 !== 0) throw new DecodeError(HexErrors.oddLength);
  }
  if (raw.length !== length * 2) {
    throw new DecodeError(`hex string has length ${raw.length}, want ${length * 2} for ${goType}`);
  }
  if (!HEX_RE.test(raw)) throw new DecodeError(HexErrors.syntax);
  return hexToBytesUnchecked(raw);
}

/** DATA of exactly `length` bytes (geth UnmarshalFixedJSON); `goType` names the type in errors. */
export function decodeFixedData(v: unknown, length: number, goType = `[${length}]byte`): Uint8Array {
  if (typeof v !== 'string') throw nonString(goType);
  return wrapHexErrors(goType, () => decodeFixedText(v, length, goType));
}

/** 20-byte address (geth common.Address). Mixed case is accepted; the checksum is not verified (as geth). */
export function decodeAddress(v: unknown): Address {
  return new Address(decodeFixedData(v, 20, 'common.Address'));
}

/** 32-byte hash (geth common.Hash). */
export function decodeHash(v: unknown): Uint8Array {
  return decodeFixedData(v, 32, 'common.Hash');
}

/**
 * Storage slot key as geth's eth_getStorageAt reads it: optional 0x, odd lengths get a
 * leading zero nibble, shorter keys are left-padded to 32 bytes, longer ones are rejected.
 */
export function decodeStorageKey(v: unknown): Uint8Array {
  if (typeof v !== 'string') throw typeError(v, 'string');
  let raw = has0x(v) ? v.slice(2) : v;
  if (!HEX_RE.test(raw)) throw new DecodeError(`invalid hex in storage key: ${JSON.stringify(v)}`);
  if (raw.length % 2 !== 0) raw = `0${raw}`;
  if (raw.length > 64) throw new DecodeError(`storage key too long (want at most 32 bytes): ${JSON.stringify(v)}`);
  const out = new Uint8Array(32);
  out.set(hexToBytesUnchecked(raw), 32 - raw.length / 2);
  return out;
}

export function decodeBoolean(v: unknown): boolean {
  if (typeof v !== 'boolean') throw typeError(v, 'bool');
  return v;
}

export function decodeString(v: unknown): string {
  if (typeof v !== 'string') throw typeError(v, 'string');
  return v;
}

/** A JSON object (not null, not an array); `goType` names the expected type in errors. */
export function decodeObject(v: unknown, goType: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw typeError(v, goType);
  return v as Record<string, unknown>;
}

/** Like geth's loose hexutil.Decode (used by filter addresses/topics): 0x required, even length, non-empty string. */
export function decodeLooseBytes(v: string): Uint8Array {
  if (v.length === 0) throw new DecodeError(HexErrors.empty);
  if (!has0x(v)) throw new DecodeError(HexErrors.missingPrefix);
  const raw = v.slice(2);
  if (raw.length % 2 !== 0) throw new DecodeError(HexErrors.oddLength);
  if (!HEX_RE.test(raw)) throw new DecodeError(HexErrors.syntax);
  return hexToBytesUnchecked(raw);
}

/** Reads an optional field: absent or JSON null → undefined (Go pointer semantics). */
export function optField<T>(obj: Record<string, unknown>, key: string, dec: (v: unknown) => T): T | undefined {
  const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  if (v === undefined || v === null) return undefined;
  return atField(key, () => dec(v));
}

/** A JSON array whose items go through `item` (errors name the index). */
export function decodeArrayOf<T>(v: unknown, item: (x: unknown) => T, goType = '[]interface {}'): T[] {
  if (!Array.isArray(v)) throw typeError(v, goType);
  return v.map((x, i) => atField(i, () => item(x)));
}

/** A finite JSON number (geth float64). */
export function decodeFloat(v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw typeError(v, 'float64');
  return v;
}

/**
 * geth math.HexOrDecimal64 (eth_feeHistory blockCount): a JSON number, or a string holding a
 * decimal or 0x-hex integer (leading zeros allowed), up to 64 bits.
 */
export function decodeHexOrDecimal64(v: unknown): bigint {
  let text: string;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) throw new DecodeError(`invalid hex or decimal integer ${String(v)}`);
    return BigInt(v);
  }
  if (typeof v === 'string') text = v;
  else throw typeError(v, 'math.HexOrDecimal64');
  const ok = has0x(text) ? /^0[xX][0-9a-fA-F]+$/.test(text) : /^[0-9]+$/.test(text);
  if (!ok) throw new DecodeError(`invalid hex or decimal integer ${JSON.stringify(text)}`);
  const n = BigInt(text);
  if (n >= 1n << 64n) throw new DecodeError(`invalid hex or decimal integer ${JSON.stringify(text)}`);
  return n;
}
