import { rlpLengthOfLength, writeRlpHeader } from '../util/rlpLength.js';
import type { Node, Ref } from './nodes.js';

/*
 * RLP of a trie node written straight from the node into a buffer (the trie's reused scratch,
 * or one of the exact size): no list of items, no hex-prefix array, no per-item allocation.
 * Children must be encoded first (their encoding decides whether the parent embeds them or
 * holds their hash). The bytes are those of RLP.encode over the node's raw list (a property
 * test checks it, and roots against @ethereumjs/mpt's).
 */

/** Length of the RLP of a byte string of `len` bytes whose first byte is `first`. */
function strLen(len: number, first: number): number {
  // Both compared for every value, not `first < 0x80 && len === 1`: value transfers' leaves never
  // start under 0x80 (account RLPs, the system contracts' roots and times), so the `len === 1`
  // behind the && never ran, had no type feedback, and a fresh node's first ERC-20 balance of
  // one byte (RLP 0x01) threw payloadLength's optimised code away (and writeStr's, encodeNodeInto's).
  const single = len === 1;
  if (first < 0x80 && single) return 1;
  return len < 56 ? 1 + len : 1 + rlpLengthOfLength(len) + len;
}

/**
 * A byte string's RLP: a single byte under 0x80 is its own encoding, anything else gets a header.
 * Written with the same steps for both (the header skipped, not a branch of its own): code
 * optimised while every value had two or more bytes (value transfers) is not thrown away at the
 * first one-byte value (an ERC-20 transfer's small balance) for want of feedback on that branch.
 */
function writeStr(out: Uint8Array, o: number, b: Uint8Array): number {
  const first = b[0];
  const single = b.length === 1; // compared for every value (see strLen)
  if (!(first < 0x80 && single)) o = writeRlpHeader(out, o, b.length, 0x80, 0xb7);
  out.set(b, o);
  return o + b.length;
}

/** Length of the RLP of a nibble path's hex-prefix encoding (its one byte is < 0x80 when alone). */
function pathLen(path: Uint8Array): number {
  const hp = (path.length >> 1) + 1;
  return hp === 1 ? 1 : hp < 56 ? 1 + hp : 1 + rlpLengthOfLength(hp) + hp;
}

/** Writes the RLP of a path's hex-prefix encoding (Yellow Paper appendix C). */
function writePath(out: Uint8Array, o: number, path: Uint8Array, isLeaf: boolean): number {
  const n = path.length;
  const odd = n & 1;
  const hp = (n >> 1) + 1;
  if (hp > 1) o = writeRlpHeader(out, o, hp, 0x80, 0xb7);
  const flag = (isLeaf ? 2 : 0) + odd;
  let i = 0;
  if (odd) {
    out[o++] = (flag << 4) | path[0];
    i = 1;
  } else out[o++] = flag << 4;
  for (; i < n; i += 2) out[o++] = (path[i] << 4) | path[i + 1];
  return o;
}

/** The bytes a child takes in its parent: 0x80 for none, 33 for a hash, its RLP when under 32 bytes. */
function childLen(c: Ref | null): number {
  if (c === null) return 1;
  if (c.t === 3) return 33;
  const small = c.enc;
  return small === undefined ? 33 : small.length;
}

function writeChild(out: Uint8Array, o: number, c: Ref | null): number {
  if (c === null) {
    out[o] = 0x80;
    return o + 1;
  }
  if (c.t !== 3) {
    const small = c.enc;
    if (small !== undefined) {
      out.set(small, o);
      return o + small.length;
    }
  }
  out[o] = 0xa0;
  out.set(c.hash as Uint8Array, o + 1);
  return o + 33;
}

/** Length of the payload of the RLP list of `n` (its items' encodings). */
export function payloadLength(n: Node): number {
  if (n.t === 2) {
    let payload = n.value === null ? 1 : strLen(n.value.length, n.value[0]);
    // childLen written out: 16 calls per branch node (~10 per automined block) in the baseline
    // code a fresh node runs until TurboFan has inlined them.
    const children = n.children;
    for (let i = 0; i < 16; i++) {
      const c = children[i];
      if (c === null) payload += 1;
      else if (c.t === 3) payload += 33;
      else {
        const small = c.enc;
        payload += small === undefined ? 33 : small.length;
      }
    }
    return payload;
  }
  if (n.t === 0) return pathLen(n.path) + strLen(n.value.length, n.value[0]);
  return pathLen(n.path) + childLen(n.child);
}

/** Length of an RLP list of `payload` bytes. */
export function listLength(payload: number): number {
  return (payload < 56 ? 1 : 1 + rlpLengthOfLength(payload)) + payload;
}

/**
 * Writes the RLP of `n`, whose payload is `payload` bytes (payloadLength), at the start of
 * `out` (at least listLength(payload) bytes) and returns its length; every child that is a node
 * must already be encoded.
 */
export function encodeNodeInto(n: Node, out: Uint8Array, payload: number): number {
  let o = writeRlpHeader(out, 0, payload, 0xc0, 0xf7);
  if (n.t === 2) {
    // writeChild written out, as childLen in payloadLength.
    const children = n.children;
    for (let i = 0; i < 16; i++) {
      const c = children[i];
      if (c === null) {
        out[o++] = 0x80;
        continue;
      }
      const small = c.t === 3 ? undefined : c.enc;
      if (small !== undefined) {
        out.set(small, o);
        o += small.length;
      } else {
        out[o] = 0xa0;
        out.set(c.hash as Uint8Array, o + 1);
        o += 33;
      }
    }
    if (n.value === null) {
      out[o] = 0x80;
      return o + 1;
    }
    return writeStr(out, o, n.value);
  }
  if (n.t === 0) {
    o = writePath(out, o, n.path, true);
    return writeStr(out, o, n.value);
  }
  o = writePath(out, o, n.path, false);
  return writeChild(out, o, n.child);
}

/** RLP of `n` in a buffer of its own. */
export function encodeNode(n: Node): Uint8Array {
  const payload = payloadLength(n);
  const out = new Uint8Array(listLength(payload));
  encodeNodeInto(n, out, payload);
  return out;
}
