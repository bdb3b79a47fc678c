import { isAshlarError, type ParamParser, toRpcError } from '@ashlar/core';
import { describe, expect, it } from 'vitest';
import { blockTag, blockTagOrHash, LATEST, withDefault } from './index.js';

/** Parses and returns the wire error ({code, message}) the call would produce. */
function wireError(p: ParamParser<unknown>, value: unknown, index = 0): { code: number; message: string } {
  try {
    p.parse(value, index);
  } catch (e) {
    expect(isAshlarError(e)).toBe(true);
    const { code, message } = toRpcError(e);
    return { code, message };
  }
  throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
}

const H = `0x${'ab'.repeat(32)}`;

describe('blockTag', () => {
  const p = blockTag('block');
  it('parses tags and numbers', () => {
    for (const tag of ['latest', 'earliest', 'pending', 'safe', 'finalized']) {
      expect(p.parse(tag, 1)).toEqual({ kind: 'tag', tag });
    }
    expect(p.parse('0x0', 1)).toEqual({ kind: 'number', number: 0n });
    expect(p.parse('0x36', 1)).toEqual({ kind: 'number', number: 54n });
    expect(p.parse('0x7fffffffffffffff', 1)).toEqual({
      kind: 'number',
      number: (1n << 63n) - 1n,
    });
  });
  it.each([
    ['Latest', 'hex string without 0x prefix'],
    ['0x01', 'hex number with leading zero digits'],
    ['0x', 'hex string "0x"'],
    ['0x8000000000000000', 'block number larger than int64'],
    ['0x10000000000000000', 'hex number > 64 bits'],
    [12, 'json: cannot unmarshal number into Go value of type rpc.BlockNumber'],
    [H, 'hex number > 64 bits'],
  ])('rejects %j', (v, msg) => {
    expect(wireError(p, v, 1)).toEqual({
      code: -32602,
      message: `invalid argument 1 (block): ${msg}`,
    });
  });
  it('defaults to latest', () => {
    expect(withDefault(p, LATEST).parse(undefined, 1)).toEqual({
      kind: 'tag',
      tag: 'latest',
    });
  });
});

describe('blockTagOrHash (EIP-1898)', () => {
  const p = blockTagOrHash('block');
  it('parses tags, numbers and bare hashes', () => {
    expect(p.parse('safe', 1)).toEqual({ kind: 'tag', tag: 'safe' });
    expect(p.parse('0x2a', 1)).toEqual({ kind: 'number', number: 42n });
    const h = p.parse(H, 1);
    expect(h.kind).toBe('hash');
    if (h.kind === 'hash') {
      expect(Buffer.from(h.hash).toString('hex')).toBe('ab'.repeat(32));
      expect(h.requireCanonical).toBe(false);
    }
  });
  it('parses objects', () => {
    expect(p.parse({ blockNumber: '0x5' }, 1)).toEqual({
      kind: 'number',
      number: 5n,
    });
    expect(p.parse({ blockNumber: 'finalized' }, 1)).toEqual({
      kind: 'tag',
      tag: 'finalized',
    });
    const h = p.parse({ blockHash: H, requireCanonical: true }, 1);
    expect(h).toMatchObject({ kind: 'hash', requireCanonical: true });
    expect(p.parse({ blockHash: H, blockNumber: null }, 1)).toMatchObject({
      kind: 'hash',
      requireCanonical: false,
    });
  });
  it.each([
    [{ blockHash: H, blockNumber: '0x1' }, 'cannot specify both BlockHash and BlockNumber, choose one or the other'],
    [{}, 'invalid arguments; neither block nor hash specified'],
    [{ blockHash: '0x1234' }, 'field "blockHash": hex string has length 4, want 64 for common.Hash'],
    [{ blockNumber: '0x01' }, 'field "blockNumber": hex number with leading zero digits'],
    [
      { blockHash: H, requireCanonical: 'yes' },
      'field "requireCanonical": json: cannot unmarshal string into Go value of type bool',
    ],
    ['0x8000000000000000', 'blocknumber too high'],
    [`0x${'zz'.repeat(32)}`, 'invalid hex string'],
    [true, 'json: cannot unmarshal bool into Go value of type string'],
    [[], 'json: cannot unmarshal array into Go value of type string'],
  ])('rejects %j', (v, msg) => {
    expect(wireError(p, v, 1)).toEqual({
      code: -32602,
      message: `invalid argument 1 (block): ${msg}`,
    });
  });
});
