/**
 * Map keys for the head state's caches. @ethereumjs's caches key by noble's `bytesToHex`, a
 * JavaScript loop whose result is a rope V8 flattens on every Map lookup (~0.5 µs for an address,
 * ~0.8 µs for a slot). Node's native slices make flat strings directly: `latin1Slice` one char
 * per byte (~0.1 µs, injective), `hexSlice` the same lowercase hex @ethereumjs writes (~0.2 µs).
 * Both are Buffer methods that accept any Uint8Array; a Node without them falls back to
 * Buffer.from (same strings, one allocation more).
 */
type Slice = (this: Uint8Array, start: number, end: number) => string;
const proto = Buffer.prototype as unknown as { latin1Slice?: Slice; hexSlice?: Slice };
const latin1Slice = proto.latin1Slice;
const hexSlice = proto.hexSlice;

/** A flat string with one char per byte: the cheapest injective key of a byte string. */
export const byteKey: (bytes: Uint8Array) => string =
  typeof latin1Slice === 'function'
    ? (bytes) => latin1Slice.call(bytes, 0, bytes.length)
    : (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** Unprefixed lowercase hex, as @ethereumjs's caches key addresses (`bytesToUnprefixedHex`). */
export const hexKey: (bytes: Uint8Array) => string =
  typeof hexSlice === 'function'
    ? (bytes) => hexSlice.call(bytes, 0, bytes.length)
    : (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/**
 * The bytes a `byteKey` was made from (a fresh array, not a pooled Buffer). A loop over the
 * char codes: the keys are 20 or 32 chars, where Buffer.from(key, 'latin1') and the copy out of
 * its pool cost ~10x as much (a flush turns every written slot's key back into bytes).
 */
export function bytesOfKey(key: string): Uint8Array {
  const out = new Uint8Array(key.length);
  for (let i = 0; i < key.length; i++) out[i] = key.charCodeAt(i);
  return out;
}
