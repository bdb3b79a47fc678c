// The integer shapes Hardhat 2.29.1 and Anvil 1.7.1 accept for dev-method integers (probed on both:
// docs/param-shapes.md) and Erigon's ots_ counts, with the -32602 wording for the rest.
import { isAshlarError, toRpcError } from '@ashlar/core';
import { describe, expect, it } from 'vitest';
import { decodeLooseInteger, looseCount, looseInteger } from './index.js';

describe('decodeLooseInteger', () => {
  it.each([
    [5, 5n],
    [0, 0n],
    ['0x5', 5n],
    ['0X5', 5n],
    ['0x05', 5n], // leading zeros: Hardhat and Anvil take them (geth's hexutil does not)
    ['0x', 0n], // Hardhat and Anvil read a bare 0x as zero
    ['5', 5n], // decimal strings: Anvil, and Hardhat for evm_increaseTime/hardhat_mine
    ['1900000000', 1_900_000_000n],
    [Number.MAX_SAFE_INTEGER, BigInt(Number.MAX_SAFE_INTEGER)],
    [`0x${'f'.repeat(64)}`, 2n ** 256n - 1n],
  ])('reads %j', (v, want) => {
    expect(decodeLooseInteger(v)).toBe(want);
  });

  it.each([
    [-1, '-1 is negative'],
    ['-0x1', '-0x1 is negative'],
    [1.5, '1.5 is not an integer'],
    [2 ** 60, 'is above 2^53-1: send it as a hex string'],
    ['ten', '"ten" is not a hex or decimal integer'],
    ['0xzz', '"0xzz" is not a hex or decimal integer'],
    ['1e3', '"1e3" is not a hex or decimal integer'],
    [' 5', '" 5" is not a hex or decimal integer'],
    [true, 'expected a number, a hex or a decimal string, got bool'],
    [{}, 'expected a number, a hex or a decimal string, got object'],
    [`0x1${'0'.repeat(64)}`, 'is above 2^256-1'],
  ])('rejects %j', (v, msg) => {
    expect(() => decodeLooseInteger(v)).toThrow(msg);
  });

  it('checks the width it is given', () => {
    expect(decodeLooseInteger(255, 8)).toBe(255n);
    expect(() => decodeLooseInteger(256, 8)).toThrow('256 is above 2^8-1');
    expect(() => decodeLooseInteger('0x10000000000000000', 64)).toThrow('above 2^64-1');
  });
});

describe('looseInteger / looseCount parsers', () => {
  it('answer -32602 naming the argument', () => {
    try {
      looseInteger('seconds').parse('soon', 0);
      expect.unreachable();
    } catch (e) {
      expect(isAshlarError(e)).toBe(true);
      expect(toRpcError(e)).toMatchObject({
        code: -32602,
        message: 'invalid argument 0 (seconds): "soon" is not a hex or decimal integer',
      });
    }
    expect(looseCount('pageSize', 16).parse('0x19', 2)).toBe(25);
    expect(() => looseCount('pageSize', 8).parse(300, 2)).toThrow('invalid argument 2 (pageSize): 300 is above 2^8-1');
  });
});
