/**
 * The RLP length header, shared by the encoders that write RLP straight into a buffer
 * (util/fastRlp.ts for any list, trie/encodeNode.ts for trie nodes).
 */

/** Bytes of the length of a long (56 bytes or more) RLP string or list. */
export function rlpLengthOfLength(n: number): number {
  if (n < 0x100) return 1;
  if (n < 0x10000) return 2;
  if (n < 0x1000000) return 3;
  let l = 3;
  for (n = Math.floor(n / 0x1000000); n > 0; n = Math.floor(n / 256)) l++;
  return l;
}

/**
 * Writes the header of an RLP item of `n` payload bytes at `o` — `short`/`long` are 0x80/0xb7 for
 * a string, 0xc0/0xf7 for a list — and returns the offset after it.
 */
export function writeRlpHeader(out: Uint8Array, o: number, n: number, short: number, long: number): number {
  if (n < 56) {
    out[o] = short + n;
    return o + 1;
  }
  const ll = rlpLengthOfLength(n);
  out[o] = long + ll;
  for (let i = ll; i > 0; i--) {
    out[o + i] = n % 256;
    n = Math.floor(n / 256);
  }
  return o + 1 + ll;
}
