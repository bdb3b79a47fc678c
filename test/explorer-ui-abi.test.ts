// The explorer UI's small ABI encoder (packages/explorer-ui/app/abiEncode.ts), which write forms use
// instead of an ABI library, checked against ethers' AbiCoder on every type it claims to handle.
import { AbiCoder } from 'ethers';
import { describe, expect, it } from 'vitest';
import { canEncode, encodeArgs } from '../packages/explorer-ui/app/abiEncode.js';

const ethers = (types: string[], values: unknown[]) => AbiCoder.defaultAbiCoder().encode(types, values).slice(2);

describe('explorer-ui ABI encoder', () => {
  it('static types encode as ethers does', () => {
    const types = ['uint256', 'uint8', 'int256', 'int8', 'int64', 'address', 'bool', 'bool', 'bytes4', 'bytes32'];
    const text = [
      '0x' + 'ff'.repeat(32),
      '255',
      '-1',
      '-128',
      '-9223372036854775808',
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      'true',
      'false',
      '0xdeadbeef',
      '0x01',
    ];
    const values = [
      2n ** 256n - 1n,
      255n,
      -1n,
      -128n,
      -(2n ** 63n),
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      true,
      false,
      '0xdeadbeef',
      `0x01${'00'.repeat(31)}`,
    ];
    expect(encodeArgs(types, text)).toBe(ethers(types, values));
  });

  it('string and bytes go in the tail after the heads, as ethers lays them out', () => {
    const types = ['string', 'uint256', 'bytes', 'string', 'bytes'];
    const long = 'Ashlar ✓ '.repeat(9); // over 32 bytes, with multi-byte UTF-8
    const text = [long, '7', '0x0102030405', '', '0x'];
    expect(encodeArgs(types, text)).toBe(ethers(types, [long, 7n, '0x0102030405', '', '0x']));
  });

  it('values that do not fit their type throw with the reason', () => {
    expect(() => encodeArgs(['uint8'], ['256'])).toThrow('does not fit uint8');
    expect(() => encodeArgs(['uint256'], ['-1'])).toThrow('does not fit uint256');
    expect(() => encodeArgs(['int8'], ['128'])).toThrow('does not fit int8');
    expect(() => encodeArgs(['uint256'], ['1.5'])).toThrow('is not an integer');
    expect(() => encodeArgs(['address'], ['0x1234'])).toThrow('is not an address');
    expect(() => encodeArgs(['bool'], ['yes'])).toThrow('is not true or false');
    expect(() => encodeArgs(['bytes2'], ['0x010203'])).toThrow('longer than bytes2');
    expect(() => encodeArgs(['bytes'], ['0x123'])).toThrow('hex bytes');
    expect(() => encodeArgs(['uint256[]'], ['[1]'])).toThrow('not supported');
  });

  it('canEncode admits the static types, string and bytes, and refuses arrays and tuples', () => {
    expect(canEncode(['uint256', 'int8', 'address', 'bool', 'bytes32', 'bytes', 'string'])).toBe(true);
    expect(canEncode(['uint256[]'])).toBe(false);
    expect(canEncode(['tuple'])).toBe(false);
    expect(canEncode(['address[2]'])).toBe(false);
  });
});
