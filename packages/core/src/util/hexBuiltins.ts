/**
 * `Uint8Array.prototype.toHex` and `Uint8Array.fromHex` (TC39's Uint8Array base64/hex, ES2026),
 * installed when the runtime lacks them (Node 20 and 22 do), on Node's native hex codec.
 *
 * Why: @noble/hashes, and @ethereumjs/util through it, use these built-ins when present and
 * otherwise build each hex string by `+=`, one byte at a time. V8 keeps such a string as a rope
 * of one-byte pieces: a 32-byte hash key is 32 heap objects (~1 KiB) where a flat string is
 * ~80 bytes, and the trie-node, account and storage caches key by exactly such strings. On a
 * chain in memory that was about a third of the heap growth per block. Imported first by the core's entry point, so it is in place before @noble
 * evaluates its "is the built-in there" check; semantics follow the specification (lowercase
 * output; odd length or a non-hex character is a SyntaxError).
 */

/** Two-character hex of every byte value. */
const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/**
 * Up to this many bytes a `+=` string stays flat (V8 makes ropes only from 13 characters on),
 * and a JS loop beats creating a Buffer view; above it, Node's codec gives a flat string.
 */
const SHORT = 6;

/** The value of a hex digit's char code, or -1. */
function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/**
 * Node's hex codec as Buffer.toString calls it, for any Uint8Array: `Buffer.from(u.buffer, …)`
 * reads `.buffer`, and for an array of up to 64 bytes, which V8 keeps inside its object, that
 * moves the bytes out into an ArrayBuffer of their own (a malloc, a copy, an external-memory
 * record for the GC) on every first call: 0.5-1.5 µs, where the codec itself takes ~0.1 µs.
 * Undefined on a runtime without it (the Buffer path then).
 */
const hexSlice = (Buffer.prototype as unknown as { hexSlice?: (start: number, end: number) => string }).hexSlice;

type HexCtor = Uint8ArrayConstructor & { fromHex?: (s: string) => Uint8Array };
type HexProto = Uint8Array & { toHex?: () => string };

export function installHexBuiltins(): void {
  const proto = Uint8Array.prototype as HexProto;
  const ctor = Uint8Array as HexCtor;
  if (typeof proto.toHex === 'function' && typeof ctor.fromHex === 'function') return;
  Object.defineProperty(Uint8Array.prototype, 'toHex', {
    value: function toHex(this: Uint8Array): string {
      if (!(this instanceof Uint8Array)) throw new TypeError('Uint8Array.prototype.toHex called on a non-Uint8Array');
      if (this.length <= SHORT) {
        let out = '';
        for (let i = 0; i < this.length; i++) out += BYTE_HEX[this[i]];
        return out;
      }
      if (hexSlice !== undefined) return hexSlice.call(this, 0, this.length);
      return Buffer.from(this.buffer, this.byteOffset, this.byteLength).toString('hex');
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
  Object.defineProperty(Uint8Array, 'fromHex', {
    value: function fromHex(s: string): Uint8Array {
      if (typeof s !== 'string') throw new TypeError('Uint8Array.fromHex: expected a string');
      if (s.length % 2 !== 0)
        throw new SyntaxError('Uint8Array.fromHex: string should be an even number of characters');
      // A JS loop: for the short strings that dominate (quantities, addresses, hashes) it beats
      // Node's codec, whose call and validation cost more than the decoding.
      const out = new Uint8Array(s.length / 2);
      for (let i = 0, j = 0; i < s.length; i += 2, j++) {
        const hi = nibble(s.charCodeAt(i));
        const lo = nibble(s.charCodeAt(i + 1));
        if (hi < 0 || lo < 0) throw new SyntaxError('Uint8Array.fromHex: string contains a non-hex character');
        out[j] = hi * 16 + lo;
      }
      return out;
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

installHexBuiltins();
