import { genTransactionsTrieRoot } from '@ethereumjs/block';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { orderedTrieRoot } from './orderedTrieRoot.js';

async function mptRoot(values: Uint8Array[]): Promise<Uint8Array> {
  const trie = new MerklePatriciaTrie();
  for (let i = 0; i < values.length; i++) await trie.put(RLP.encode(i), values[i]);
  return trie.root();
}

function bytes(len: number, seed: number): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) out[i] = (seed * 31 + i * 7) & 0xff;
  return out;
}

describe('orderedTrieRoot', () => {
  it('is the empty root for no values, as @ethereumjs/block computes it', async () => {
    expect(await orderedTrieRoot([], keccak_256)).toEqual(await genTransactionsTrieRoot([]));
  });

  // One value (an automined block's transaction and receipt) takes a path of its own: lengths
  // around RLP's 55-byte and 256-byte length-of-length steps and the 32-byte node-embedding size.
  for (const len of [1, 2, 27, 28, 29, 31, 32, 33, 53, 54, 55, 56, 57, 255, 256, 1_000, 70_000]) {
    it(`equals @ethereumjs/mpt's root for one value of ${len} bytes`, async () => {
      const values = [bytes(len, len)];
      expect(await orderedTrieRoot(values, keccak_256)).toEqual(await mptRoot(values));
    });
  }
  it('one single-byte value under 0x80 (its own RLP) and one of 0x80', async () => {
    for (const v of [Uint8Array.of(0x00), Uint8Array.of(0x7f), Uint8Array.of(0x80)]) {
      expect(await orderedTrieRoot([v], keccak_256)).toEqual(await mptRoot([v]));
    }
  });

  // Sizes cross the 16- and 128-entry boundaries where rlp(i) changes length and branches nest;
  // short values make nodes under 32 bytes that parents embed instead of hashing.
  for (const n of [1, 2, 15, 16, 17, 127, 128, 129, 300]) {
    for (const len of [1, 5, 40, 120]) {
      it(`equals @ethereumjs/mpt's root for ${n} values of ${len} bytes`, async () => {
        const values = Array.from({ length: n }, (_, i) => bytes(len, i + 1));
        expect(await orderedTrieRoot(values, keccak_256)).toEqual(await mptRoot(values));
      });
    }
  }
});
