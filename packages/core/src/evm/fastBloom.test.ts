import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { Bloom } from '@ethereumjs/vm';
import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { originalBloomAdd } from './fastBloom.js';
import { installEngineSpeedups } from './internals.js';

type Add = (this: Bloom, e: Uint8Array) => void;

/** Deterministic pseudo-random entries of 20 and 32 bytes (and a few odd lengths). */
function entries(n: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const seed = createHash('sha256').update(`entry ${i}`).digest();
    out.push(new Uint8Array(seed.subarray(0, [20, 32, 32, 0, 1, 33][i % 6])));
  }
  return out;
}

describe('Bloom.add with the bits of each entry remembered', () => {
  it('sets the same bits as the original for new, repeated and many entries (past the memo bound)', async () => {
    await installEngineSpeedups();
    expect(originalBloomAdd).toBeDefined();
    const original = originalBloomAdd as unknown as Add;
    const list = entries(5000);
    const fast = new Bloom();
    const stock = new Bloom();
    // Twice over, so the second pass is answered from the memo (or after it was emptied).
    for (const e of [...list, ...list.slice(0, 300), ...list]) {
      fast.add(e);
      original.call(stock, e);
      expect(bytesToHex(fast.bitvector)).toBe(bytesToHex(stock.bitvector));
    }
    for (const e of list.slice(0, 50)) {
      const one = new Bloom();
      const ref = new Bloom();
      one.add(e);
      original.call(ref, e);
      expect(bytesToHex(one.bitvector)).toBe(bytesToHex(ref.bitvector));
      expect(one.check(e)).toBe(true);
    }
  });

  it('keeps the bits per hash function, read from the hash as the original reads it', async () => {
    await installEngineSpeedups();
    const original = originalBloomAdd as unknown as Add;
    // A hash function whose result is a view into a larger buffer: the original reads the buffer
    // from its start, and so must the memo.
    const offsetKeccak = (b: Uint8Array) => {
      const big = new Uint8Array(64).fill(0x5a);
      big.set(keccak_256(b), 16);
      return big.subarray(16);
    };
    const e = Uint8Array.of(1, 2, 3);
    for (const keccak of [keccak_256, offsetKeccak]) {
      const fast = new Bloom();
      const stock = new Bloom();
      (fast as unknown as { keccakFunction: unknown }).keccakFunction = keccak;
      (stock as unknown as { keccakFunction: unknown }).keccakFunction = keccak;
      fast.add(e);
      fast.add(e);
      original.call(stock, e);
      expect(bytesToHex(fast.bitvector)).toBe(bytesToHex(stock.bitvector));
    }
    const a = new Bloom();
    const b = new Bloom();
    (b as unknown as { keccakFunction: unknown }).keccakFunction = offsetKeccak;
    a.add(e);
    b.add(e);
    expect(bytesToHex(a.bitvector)).not.toBe(bytesToHex(b.bitvector));
  });

  it('fails as the original on what is not bytes', async () => {
    await installEngineSpeedups();
    const original = originalBloomAdd as unknown as Add;
    const message = (f: () => void) => {
      try {
        f();
      } catch (err) {
        return (err as Error).message;
      }
      return 'no error';
    };
    const bad = 'abc' as unknown as Uint8Array;
    expect(message(() => new Bloom().add(bad))).toBe(message(() => original.call(new Bloom(), bad)));
  });
});
