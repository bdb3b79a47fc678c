/**
 * `Bloom.prototype.add` of @ethereumjs/vm 10.1.3 with the bits of each entry remembered: runTx
 * builds every transaction's logs bloom by hashing each log's address and each topic (an ERC-20
 * Transfer: four Keccak-256 hashes), and the same token address, event signature and holder
 * addresses come back transaction after transaction. The three bit positions of an entry are
 * computed exactly as the original computes them (same hash function, same reads of its result)
 * and kept per hash function, up to 4,096 entries (then the memo starts afresh).
 *
 * Installed only when the original's source text has the SHA-256 below.
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { byteKey } from '../chain/stateCacheKeys.js';

/** SHA-256 of `Bloom.prototype.add.toString()` in @ethereumjs/vm 10.1.3. */
const ADD_SHA256 = 'e1a0bc653dd9c885c0a8f844f0c5d83184f0438c42ddbc1b2716a054f8bb682d';

const MAX_ENTRIES = 4_096;
const BYTE_SIZE = 256;

type Keccak = (bytes: Uint8Array) => Uint8Array;

interface BloomSelf {
  keccakFunction: Keccak;
  bitvector: Uint8Array;
}

/** The original, kept for tests that compare it with the installed one. */
export let originalBloomAdd: ((this: BloomSelf, e: Uint8Array) => void) | undefined;

/** Per hash function, per entry (`byteKey`), the byte index and bit of each of its three bloom bits. */
const memo = new WeakMap<Keccak, Map<string, Uint16Array>>();

/** The original's three (byte, bit) pairs for an entry, from its hash as the original reads it. */
function bloomBits(hash: Uint8Array): Uint16Array {
  const out = new Uint16Array(6);
  const mask = 2047;
  for (let i = 0; i < 3; i++) {
    // As the original: the hash's whole underlying buffer, from its start.
    const first2bytes = new DataView(hash.buffer).getUint16(i * 2);
    const loc = mask & first2bytes;
    out[i * 2] = BYTE_SIZE - (loc >> 3) - 1;
    out[i * 2 + 1] = 1 << (loc % 8);
  }
  return out;
}

function add(this: BloomSelf, e: Uint8Array): void {
  // Not a byte array: the original's path (and its error).
  if (!(e instanceof Uint8Array)) {
    (originalBloomAdd as (this: BloomSelf, e: Uint8Array) => void).call(this, e);
    return;
  }
  const keccak = this.keccakFunction;
  let entries = memo.get(keccak);
  if (entries === undefined) {
    entries = new Map();
    memo.set(keccak, entries);
  }
  const key = byteKey(e);
  let bits = entries.get(key);
  if (bits === undefined) {
    bits = bloomBits(keccak(e));
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, bits);
  }
  const v = this.bitvector;
  v[bits[0] as number] |= bits[1] as number;
  v[bits[2] as number] |= bits[3] as number;
  v[bits[4] as number] |= bits[5] as number;
}

/** Installs the memoised `add` (see the file comment); returns whether it did. */
export async function installFastBloom(): Promise<boolean> {
  const vmEntry = createRequire(import.meta.url).resolve('@ethereumjs/vm');
  const file = join(dirname(vmEntry), '..', 'esm', 'bloom', 'index.js');
  const mod = (await import(pathToFileURL(file).href)) as { Bloom?: { prototype: Record<string, unknown> } };
  const proto = mod.Bloom?.prototype;
  const original = proto?.add;
  if (!proto || typeof original !== 'function') return false;
  if (createHash('sha256').update(original.toString()).digest('hex') !== ADD_SHA256) return false;
  originalBloomAdd = original as typeof originalBloomAdd;
  proto.add = add;
  return true;
}
