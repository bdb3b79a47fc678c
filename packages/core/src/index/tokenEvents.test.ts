import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import type { RawLog } from '../chain/types.js';
import { u256 } from './codec.js';
import { MAX_BATCH_ITEMS, TOPICS, decodeTransfers } from './tokenEvents.js';

const topicOf = (sig: string) => keccak_256(new TextEncoder().encode(sig));
const word = (a: Uint8Array) => {
  const w = new Uint8Array(32);
  w.set(a, 12);
  return w;
};
const token = new Uint8Array(20).fill(0x11);
const alice = new Uint8Array(20).fill(0xaa);
const bob = new Uint8Array(20).fill(0xbb);
const cat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));

describe('decodeTransfers', () => {
  it('uses the keccak of the standard event signatures', () => {
    expect(TOPICS.transfer).toEqual(topicOf('Transfer(address,address,uint256)'));
    expect(TOPICS.transferSingle).toEqual(topicOf('TransferSingle(address,address,address,uint256,uint256)'));
    expect(TOPICS.transferBatch).toEqual(topicOf('TransferBatch(address,address,address,uint256[],uint256[])'));
  });

  it('reads an ERC-20 Transfer (value in data) and an ERC-721 Transfer (id as 4th topic)', () => {
    const erc20: RawLog = [token, [TOPICS.transfer, word(alice), word(bob)], u256(5n)];
    expect(decodeTransfers(erc20)).toEqual([
      { sub: 0, kind: 'erc20', token, from: alice, to: bob, amount: 5n, tokenId: null },
    ]);
    const erc721: RawLog = [token, [TOPICS.transfer, word(alice), word(bob), u256(42n)], new Uint8Array(0)];
    expect(decodeTransfers(erc721)).toEqual([
      { sub: 0, kind: 'erc721', token, from: alice, to: bob, amount: 1n, tokenId: 42n },
    ]);
  });

  it('reads ERC-1155 TransferSingle and splits TransferBatch into items', () => {
    const operator = word(alice);
    const single: RawLog = [token, [TOPICS.transferSingle, operator, word(alice), word(bob)], cat(u256(7n), u256(3n))];
    expect(decodeTransfers(single)).toEqual([
      { sub: 0, kind: 'erc1155-single', token, from: alice, to: bob, amount: 3n, tokenId: 7n },
    ]);
    const data = cat(u256(64n), u256(160n), u256(2n), u256(1n), u256(2n), u256(2n), u256(10n), u256(20n));
    const batch: RawLog = [token, [TOPICS.transferBatch, operator, word(alice), word(bob)], data];
    expect(decodeTransfers(batch).map((t) => [t.sub, t.tokenId, t.amount])).toEqual([
      [0, 1n, 10n],
      [1, 2n, 20n],
    ]);
  });

  it('ignores malformed and unrelated logs', () => {
    expect(decodeTransfers([token, [TOPICS.transfer, word(alice)], u256(1n)])).toEqual([]);
    expect(decodeTransfers([token, [TOPICS.transfer, word(alice), word(bob)], new Uint8Array(31)])).toEqual([]);
    expect(
      decodeTransfers([token, [topicOf('Approval(address,address,uint256)'), word(alice), word(bob)], u256(1n)]),
    ).toEqual([]);
    const lying = cat(u256(64n), u256(160n), u256(BigInt(MAX_BATCH_ITEMS + 1)));
    expect(decodeTransfers([token, [TOPICS.transferBatch, word(alice), word(alice), word(bob)], lying])).toEqual([]);
    const mismatched = cat(u256(64n), u256(128n), u256(1n), u256(1n), u256(0n));
    expect(decodeTransfers([token, [TOPICS.transferBatch, word(alice), word(alice), word(bob)], mismatched])).toEqual(
      [],
    );
    expect(decodeTransfers([token, [], new Uint8Array(0)])).toEqual([]);
  });
});
