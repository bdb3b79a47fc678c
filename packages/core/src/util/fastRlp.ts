import { type Input, type NestedUint8Array, RLP } from '@ethereumjs/rlp';
import { rlpLengthOfLength, writeRlpHeader } from './rlpLength.js';

/**
 * A faster `RLP.encode` / `RLP.decode` for @ethereumjs/rlp 10.x, installed on its exported `RLP`
 * object, through which every @ethereumjs package calls it (`RLP.encode(...)`): same bytes, same
 * values, same errors.
 *
 * Why: the stock encoder allocates a length prefix (`Uint8Array.from([n])`) and a concatenation
 * per item at every level; the stock decoder copies each list's payload before decoding its items
 * (a block's bytes were copied once per nesting level) and parses lengths through hex strings.
 * Accounts, transactions, headers and receipts go through it many times per block: a fifth of the
 * bytes an automined transfer allocated came from it.
 *
 * - encode: one pass measures, one pass writes into a single buffer. Anything but byte arrays
 *   and lists (numbers, bigints, strings, null) and top-level scalars go to the stock encoder,
 *   which also returns a one-byte input itself, as before.
 * - decode: walks offsets; every byte string it returns is a fresh copy (as before: callers keep
 *   and may mutate them). Invalid input is decoded again by the stock decoder, which throws the
 *   error it always threw.
 */
const stock = { encode: RLP.encode, decode: RLP.decode };
let installed = false;

export function installFastRlp(): void {
  if (installed) return;
  installed = true;
  RLP.encode = fastEncode;
  RLP.decode = fastDecode as typeof RLP.decode;
  warmListKinds();
}

/**
 * Encodes, a few times at install, lists of each array kind the encoder meets: literals (packed),
 * empty literals (small integers), and arrays made by `new Array(n)` or `Array.prototype.map`
 * (holey), so that measure and write record them all before V8 optimises them. A fresh node that
 * mined value transfers (only packed and empty lists) had both optimised on those alone, and the
 * first receipt with log topics (a holey array) threw that code away ("wrong map").
 */
function warmListKinds(): void {
  const bytes = Uint8Array.of(0x80, 1);
  const holey: unknown[] = new Array(2);
  holey[0] = bytes;
  holey[1] = [bytes];
  const sample = [bytes, [bytes], holey, [], new Array(0), [holey]] as Input;
  for (let i = 0; i < 16; i++) fastEncode(sample);
}

// ---------------------------------------------------------------------------------------------
// encode

/** Thrown inside measure() when the input holds a value the fast path does not take. */
const UNSUPPORTED = Symbol('unsupported');

function headerSize(payload: number, isSingleByte: boolean): number {
  if (isSingleByte) return 0;
  return payload < 56 ? 1 : 1 + rlpLengthOfLength(payload);
}

/** Encoded size of `item`; records each list's payload length in `lists` (pre-order). */
function measure(item: unknown, lists: number[]): number {
  if (item instanceof Uint8Array) {
    const n = item.length;
    return n === 1 && item[0] < 0x80 ? 1 : n + headerSize(n, false);
  }
  if (Array.isArray(item)) {
    const slot = lists.length;
    lists.push(0);
    let payload = 0;
    for (let i = 0; i < item.length; i++) payload += measure(item[i], lists);
    lists[slot] = payload;
    return payload + headerSize(payload, false);
  }
  throw UNSUPPORTED;
}

interface Cursor {
  o: number;
  list: number;
}

function write(item: Uint8Array | unknown[], out: Uint8Array, c: Cursor, lists: number[]): void {
  if (item instanceof Uint8Array) {
    const n = item.length;
    if (n === 1 && item[0] < 0x80) {
      out[c.o++] = item[0];
      return;
    }
    c.o = writeRlpHeader(out, c.o, n, 0x80, 0xb7);
    out.set(item, c.o);
    c.o += n;
    return;
  }
  c.o = writeRlpHeader(out, c.o, lists[c.list++], 0xc0, 0xf7);
  for (let i = 0; i < item.length; i++) write(item[i] as Uint8Array | unknown[], out, c, lists);
}

function fastEncode(input: Input): Uint8Array {
  if (input instanceof Uint8Array) return encodeBytes(input);
  if (!Array.isArray(input)) return stock.encode(input);
  const lists: number[] = [];
  let size: number;
  try {
    size = measure(input, lists);
  } catch (e) {
    if (e === UNSUPPORTED) return stock.encode(input);
    throw e;
  }
  const out = new Uint8Array(size);
  write(input, out, { o: 0, list: 0 }, lists);
  return out;
}

/**
 * The RLP of one byte string, written into one array: stock goes through encodeLength's
 * Uint8Array.from and a concatBytes (a storage write encodes its value this way). A byte below
 * 0x80 alone is its own encoding: the same array, as stock returns it.
 */
function encodeBytes(input: Uint8Array): Uint8Array {
  const n = input.length;
  // The first byte is read and compared whatever the length (undefined when empty): code optimised
  // on longer values (a dev block's slot writes) has feedback for both, and the first one-byte
  // value (an ERC-20 balance of 1) does not throw it away ("insufficient type feedback").
  const first = input[0];
  if (first < 0x80 && n === 1) return input;
  const out = new Uint8Array((n < 56 ? 1 : 1 + rlpLengthOfLength(n)) + n);
  out.set(input, writeRlpHeader(out, 0, n, 0x80, 0xb7));
  return out;
}

// ---------------------------------------------------------------------------------------------
// decode

/** Thrown when the input is not valid RLP; the stock decoder then produces the real error. */
const INVALID = Symbol('invalid');

type Decoded = Uint8Array | NestedUint8Array;

/** Reads a big-endian length of `n` bytes at `at` (the stock decoder rejects a leading zero). */
function readLength(buf: Uint8Array, at: number, n: number, end: number): number {
  if (at + n > end || buf[at] === 0) throw INVALID;
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + buf[at + i];
  return v;
}

/** Decodes the item at `pos` within `buf[..end]`; `next[0]` gets the offset after it. */
function decodeAt(buf: Uint8Array, pos: number, end: number, next: number[]): Decoded {
  const first = buf[pos];
  if (first <= 0x7f) {
    next[0] = pos + 1;
    return buf.slice(pos, pos + 1);
  }
  if (first <= 0xb7) {
    const n = first - 0x80;
    if (pos + 1 + n > end) throw INVALID;
    if (n === 1 && buf[pos + 1] < 0x80) throw INVALID;
    next[0] = pos + 1 + n;
    return n === 0 ? new Uint8Array(0) : buf.slice(pos + 1, pos + 1 + n);
  }
  if (first <= 0xbf) {
    const ll = first - 0xb7;
    const n = readLength(buf, pos + 1, ll, end);
    if (n <= 55) throw INVALID;
    const start = pos + 1 + ll;
    if (start + n > end) throw INVALID;
    next[0] = start + n;
    return buf.slice(start, start + n);
  }
  let start: number;
  let n: number;
  if (first <= 0xf7) {
    n = first - 0xc0;
    start = pos + 1;
  } else {
    const ll = first - 0xf7;
    n = readLength(buf, pos + 1, ll, end);
    if (n < 56) throw INVALID;
    start = pos + 1 + ll;
  }
  const stop = start + n;
  if (stop > end) throw INVALID;
  const items: Decoded[] = [];
  let at = start;
  while (at < stop) {
    items.push(decodeAt(buf, at, stop, next));
    at = next[0];
  }
  next[0] = stop;
  return items as NestedUint8Array;
}

function fastDecode(input: Input, stream = false): Decoded | { data: Decoded; remainder: Uint8Array } {
  if (!(input instanceof Uint8Array) || input.length === 0) return stock.decode(input as Input, stream as false);
  const next = [0];
  let data: Decoded;
  try {
    data = decodeAt(input, 0, input.length, next);
  } catch (e) {
    if (e === INVALID) return stock.decode(input, stream as false);
    throw e;
  }
  if (stream) return { data, remainder: input.slice(next[0]) };
  if (next[0] !== input.length) return stock.decode(input, false);
  return data;
}
