import { RLP } from '@ethereumjs/rlp';
import type { NestedRaw } from './nodes.js';

/** Length of the RLP encoding of a byte string. */
function strLen(b: Uint8Array): number {
  if (b.length === 1 && b[0] < 0x80) return 1;
  if (b.length < 56) return 1 + b.length;
  return 1 + lenOfLen(b.length) + b.length;
}

function lenOfLen(n: number): number {
  let l = 0;
  while (n > 0) {
    l++;
    n = Math.floor(n / 256);
  }
  return l;
}

function writeLen(out: Uint8Array, o: number, n: number, short: number, long: number): number {
  if (n < 56) {
    out[o] = short + n;
    return o + 1;
  }
  const ll = lenOfLen(n);
  out[o] = long + ll;
  for (let i = ll; i > 0; i--) {
    out[o + i] = n & 0xff;
    n = Math.floor(n / 256);
  }
  return o + 1 + ll;
}

/**
 * RLP of a trie node whose items are all byte strings (every branch, leaf and extension node
 * that embeds no child under 32 bytes: nearly all of them): one allocation, no intermediate
 * arrays. Anything else goes to @ethereumjs/rlp. The bytes are RLP.encode's (a test checks it).
 */
export function encodeNode(raw: NestedRaw): Uint8Array {
  let payload = 0;
  for (const item of raw) {
    if (!(item instanceof Uint8Array)) return RLP.encode(raw);
    payload += strLen(item);
  }
  const head = payload < 56 ? 1 : 1 + lenOfLen(payload);
  const out = new Uint8Array(head + payload);
  let o = writeLen(out, 0, payload, 0xc0, 0xf7);
  for (const b of raw as Uint8Array[]) {
    if (b.length === 1 && b[0] < 0x80) {
      out[o++] = b[0];
      continue;
    }
    o = writeLen(out, o, b.length, 0x80, 0xb7);
    out.set(b, o);
    o += b.length;
  }
  return out;
}
