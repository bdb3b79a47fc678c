// Erigon's rpc.BlockNumber and rpc.BlockNumberOrHash: tags, JSON numbers and decimal strings
// beside geth's hex (Erigon tries a decimal parse first, then hexutil), as Otterscan sends them.
import { isAshlarError, toRpcError } from '@ashlar/core';
import { describe, expect, it } from 'vitest';
import { DecodeError, decodeErigonBlockNumber, decodeErigonBlockOrHash, erigonBlockNumber } from './index.js';

const H = `0x${'ab'.repeat(32)}`;
/** The error text a parser puts after `invalid argument i (name): `, field path included. */
function described(v: unknown): string {
  try {
    decodeErigonBlockOrHash(v);
  } catch (e) {
    if (e instanceof DecodeError) return e.describe();
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(v)} to be rejected`);
}

const hashBytes = Uint8Array.from({ length: 32 }, () => 0xab);

describe('decodeErigonBlockNumber', () => {
  it.each(['latest', 'earliest', 'pending', 'safe', 'finalized'])('reads the tag %s', (tag) => {
    expect(decodeErigonBlockNumber(tag)).toEqual({ kind: 'tag', tag });
  });

  it.each([
    [5, 5n],
    [0, 0n],
    ['5', 5n],
    ['0x5', 5n],
    ['0x05', 5n], // Erigon's hexutil refuses leading zeros; Anvil's ots_ takes them, and so does Ashlar
    ['0x0', 0n],
    ['0x7fffffffffffffff', 2n ** 63n - 1n],
  ])('reads %j as a number', (v, n) => {
    expect(decodeErigonBlockNumber(v)).toEqual({ kind: 'number', number: n });
  });

  it.each([
    ['Latest', 'invalid block number or tag: "Latest" is not a hex or decimal integer'],
    ['0x', 'invalid block number "0x": no digits'],
    [-1, 'invalid block number or tag: -1 is negative'],
    ['0x8000000000000000', 'block number larger than int64'],
    [null, 'expected a block number or tag, got null'],
    [true, 'expected a block number or tag, got bool'],
    [[5], 'expected a block number or tag, got array'],
  ])('rejects %j', (v, msg) => {
    expect(() => decodeErigonBlockNumber(v)).toThrow(msg);
  });

  it('parser answers -32602 naming the argument', () => {
    try {
      erigonBlockNumber('blockNumber').parse('soon', 0);
      expect.unreachable();
    } catch (e) {
      expect(isAshlarError(e)).toBe(true);
      expect(toRpcError(e)).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^invalid argument 0 \(blockNumber\): /),
      });
    }
  });
});

describe('decodeErigonBlockOrHash', () => {
  it('reads numbers, tags, hashes and EIP-1898 objects', () => {
    expect(decodeErigonBlockOrHash(5)).toEqual({ kind: 'number', number: 5n });
    expect(decodeErigonBlockOrHash('12')).toEqual({ kind: 'number', number: 12n });
    expect(decodeErigonBlockOrHash('latest')).toEqual({ kind: 'tag', tag: 'latest' });
    expect(decodeErigonBlockOrHash(H)).toEqual({ kind: 'hash', hash: hashBytes, requireCanonical: false });
    expect(decodeErigonBlockOrHash({ blockNumber: 7 })).toEqual({ kind: 'number', number: 7n });
    expect(decodeErigonBlockOrHash({ blockNumber: '0x7' })).toEqual({ kind: 'number', number: 7n });
    expect(decodeErigonBlockOrHash({ blockHash: H, requireCanonical: true })).toEqual({
      kind: 'hash',
      hash: hashBytes,
      requireCanonical: true,
    });
  });

  it('rejects what names no block', () => {
    expect(() => decodeErigonBlockOrHash({})).toThrow('neither block nor hash specified');
    expect(() => decodeErigonBlockOrHash({ blockNumber: 1, blockHash: H })).toThrow('cannot specify both');
    expect(described({ blockHash: '0x12' })).toBe(
      // geth's and Erigon's common.Hash wording (a length error is not wrapped in a type error)
      'field "blockHash": hex string has length 2, want 64 for common.Hash',
    );
    expect(described({ blockNumber: 'soon' })).toBe(
      'field "blockNumber": invalid block number or tag: "soon" is not a hex or decimal integer',
    );
    expect(() => decodeErigonBlockOrHash(`0x${'zz'.repeat(32)}`)).toThrow('invalid hex string');
  });
});
