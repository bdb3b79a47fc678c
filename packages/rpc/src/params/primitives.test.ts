import type { ParamParser } from '@ashlar/core';
import { isAshlarError, toRpcError } from '@ashlar/core';
import { describe, expect, it } from 'vitest';
import {
  address,
  boolean,
  data,
  fixedData,
  hash,
  optional,
  quantity,
  quantityNumber,
  quantityU64,
  storageKey,
  string,
  withDefault,
} from './index.js';

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

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('quantity', () => {
  const p = quantity('value');
  it('parses canonical quantities', () => {
    expect(p.parse('0x0', 0)).toBe(0n);
    expect(p.parse('0x1', 0)).toBe(1n);
    expect(p.parse('0xde0b6b3a7640000', 0)).toBe(10n ** 18n);
    expect(p.parse('0xABCDEF', 0)).toBe(0xabcdefn);
    expect(p.parse('0X10', 0)).toBe(16n);
    expect(p.parse(`0x${'f'.repeat(64)}`, 0)).toBe((1n << 256n) - 1n);
  });
  it.each([
    ['0x01', 'json: cannot unmarshal hex number with leading zero digits into Go value of type *hexutil.Big'],
    ['0x00', 'json: cannot unmarshal hex number with leading zero digits into Go value of type *hexutil.Big'],
    ['0x', 'json: cannot unmarshal hex string "0x" into Go value of type *hexutil.Big'],
    ['', 'json: cannot unmarshal empty hex string into Go value of type *hexutil.Big'],
    ['10', 'json: cannot unmarshal hex string without 0x prefix into Go value of type *hexutil.Big'],
    ['0xg', 'json: cannot unmarshal invalid hex string into Go value of type *hexutil.Big'],
    [`0x1${'0'.repeat(64)}`, 'json: cannot unmarshal hex number > 256 bits into Go value of type *hexutil.Big'],
    [1, 'json: cannot unmarshal non-string into Go value of type *hexutil.Big'],
    [null, 'json: cannot unmarshal non-string into Go value of type *hexutil.Big'],
  ])('rejects %j', (v, msg) => {
    expect(wireError(p, v, 2)).toEqual({
      code: -32602,
      message: `invalid argument 2 (value): ${msg}`,
    });
  });
  it('reports a missing required value', () => {
    expect(wireError(p, undefined, 1)).toEqual({
      code: -32602,
      message: 'missing value for required argument 1 (value)',
    });
  });
});

describe('quantityU64 / quantityNumber', () => {
  it('bounds to 64 bits', () => {
    expect(quantityU64('gas').parse(`0x${'f'.repeat(16)}`, 0)).toBe((1n << 64n) - 1n);
    expect(wireError(quantityU64('gas'), `0x1${'0'.repeat(16)}`).message).toBe(
      'invalid argument 0 (gas): json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint64',
    );
  });
  it('returns safe integers', () => {
    expect(quantityNumber('index').parse('0x1f', 0)).toBe(31);
    expect(quantityNumber('index').parse('0x1fffffffffffff', 0)).toBe(Number.MAX_SAFE_INTEGER);
    expect(wireError(quantityNumber('index'), '0x20000000000000').message).toBe(
      'invalid argument 0 (index): hex number > 53 bits',
    );
    expect(wireError(quantityNumber('index'), '0x01').message).toBe(
      'invalid argument 0 (index): json: cannot unmarshal hex number with leading zero digits into Go value of type hexutil.Uint64',
    );
  });
});

describe('data', () => {
  const p = data('input');
  it('decodes bytes', () => {
    expect(hex(p.parse('0x', 0))).toBe('');
    expect(hex(p.parse('', 0))).toBe('');
    expect(hex(p.parse('0x00ff10', 0))).toBe('00ff10');
    expect(hex(p.parse('0xABcd', 0))).toBe('abcd');
    // Every digit, both cases.
    expect(hex(p.parse('0x0123456789abcdefABCDEF', 0))).toBe('0123456789abcdefabcdef');
  });
  it('decodes long input (a raw transaction, call data) byte for byte, both cases', () => {
    for (const n of [79, 80, 81, 115, 300, 4096]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 151 + n) & 0xff);
      const digits = hex(bytes);
      const mixed = [...digits].map((c, i) => (i % 3 === 0 ? c.toUpperCase() : c)).join('');
      for (const text of [digits, mixed]) {
        const got = p.parse(`0x${text}`, 0);
        expect(Object.getPrototypeOf(got)).toBe(Uint8Array.prototype);
        expect(got.length).toBe(n);
        expect(hex(got)).toBe(digits);
      }
    }
    // An invalid digit far into long input is refused as in short input.
    const long = `0x${'ab'.repeat(100)}zz${'cd'.repeat(100)}`;
    expect(wireError(p, long).message).toBe(
      'invalid argument 0 (input): json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes',
    );
  });
  it.each([
    ['0x123', 'json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes'],
    ['abcd', 'json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes'],
    ['0xzz', 'json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes'],
    [42, 'json: cannot unmarshal non-string into Go value of type hexutil.Bytes'],
  ])('rejects %j', (v, msg) => {
    expect(wireError(p, v).message).toBe(`invalid argument 0 (input): ${msg}`);
  });
});

describe('address / hash / fixedData', () => {
  it('parses addresses (any case) into Address', () => {
    const a = address('address').parse('0x7DCD17433742F4C0CA53122AB541D0BA67FC27DF', 0);
    expect(a.toString()).toBe('0x7dcd17433742f4c0ca53122ab541d0ba67fc27df');
  });
  it('uses geth wording for bad lengths', () => {
    expect(wireError(address('address'), `0x${'a'.repeat(38)}`)).toEqual({
      code: -32602,
      message: 'invalid argument 0 (address): hex string has length 38, want 40 for common.Address',
    });
    expect(wireError(address('address'), `0x${'a'.repeat(39)}`).message).toBe(
      'invalid argument 0 (address): json: cannot unmarshal hex string of odd length into Go value of type common.Address',
    );
    expect(wireError(address('address'), 'a'.repeat(40)).message).toBe(
      'invalid argument 0 (address): json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address',
    );
    expect(wireError(address('address'), `0x${'g'.repeat(40)}`).message).toBe(
      'invalid argument 0 (address): json: cannot unmarshal invalid hex string into Go value of type common.Address',
    );
    expect(wireError(hash('blockHash'), `0x${'0'.repeat(62)}`).message).toBe(
      'invalid argument 0 (blockHash): hex string has length 62, want 64 for common.Hash',
    );
  });
  it('fixedData takes any length', () => {
    expect(hex(fixedData('nonce', 8).parse('0x0000000000000042', 0))).toBe('0000000000000042');
    expect(wireError(fixedData('nonce', 8, 'types.BlockNonce'), '0x00').message).toBe(
      'invalid argument 0 (nonce): hex string has length 2, want 16 for types.BlockNonce',
    );
  });
});

describe('storageKey (geth eth_getStorageAt rules)', () => {
  const p = storageKey('slot');
  it('left-pads short keys and accepts odd lengths / missing prefix', () => {
    expect(hex(p.parse('0x0', 1))).toBe('0'.repeat(64));
    expect(hex(p.parse('0x1', 1))).toBe(`${'0'.repeat(63)}1`);
    expect(hex(p.parse('0x0100', 1))).toBe(`${'0'.repeat(60)}0100`);
    expect(hex(p.parse('ff', 1))).toBe(`${'0'.repeat(62)}ff`);
    expect(hex(p.parse(`0x${'ab'.repeat(32)}`, 1))).toBe('ab'.repeat(32));
  });
  it('rejects invalid and too long keys with -32602 (vectors get-storage-invalid-key*)', () => {
    expect(wireError(p, '0xasdf', 1)).toEqual({
      code: -32602,
      message: 'invalid argument 1 (slot): invalid hex in storage key: "0xasdf"',
    });
    const long = `0x${'0'.repeat(65)}`;
    expect(wireError(p, long, 1)).toEqual({
      code: -32602,
      message: `invalid argument 1 (slot): storage key too long (want at most 32 bytes): "${long}"`,
    });
    expect(wireError(p, 5, 1).message).toBe(
      'invalid argument 1 (slot): json: cannot unmarshal number into Go value of type string',
    );
  });
});

describe('boolean / string', () => {
  it('accepts only JSON booleans', () => {
    expect(boolean('fullTransactions').parse(true, 1)).toBe(true);
    expect(boolean('fullTransactions').parse(false, 1)).toBe(false);
    expect(wireError(boolean('fullTransactions'), 'true', 1).message).toBe(
      'invalid argument 1 (fullTransactions): json: cannot unmarshal string into Go value of type bool',
    );
    expect(wireError(boolean('fullTransactions'), 1, 1).message).toBe(
      'invalid argument 1 (fullTransactions): json: cannot unmarshal number into Go value of type bool',
    );
  });
  it('string', () => {
    expect(string('message').parse('hi', 0)).toBe('hi');
    expect(wireError(string('message'), {}).message).toBe(
      'invalid argument 0 (message): json: cannot unmarshal object into Go value of type string',
    );
  });
});

describe('optional / withDefault', () => {
  it('optional maps undefined and null to undefined', () => {
    const p = optional(quantity('value'));
    expect(p.optional).toBe(true);
    expect(p.name).toBe('value');
    expect(p.parse(undefined, 0)).toBeUndefined();
    expect(p.parse(null, 0)).toBeUndefined();
    expect(p.parse('0x2', 0)).toBe(2n);
    expect(wireError(p, '0x02').message).toBe(
      'invalid argument 0 (value): json: cannot unmarshal hex number with leading zero digits into Go value of type *hexutil.Big',
    );
  });
  it('withDefault supplies the fallback', () => {
    const p = withDefault(boolean('full'), false);
    expect(p.optional).toBe(true);
    expect(p.parse(undefined, 1)).toBe(false);
    expect(p.parse(null, 1)).toBe(false);
    expect(p.parse(true, 1)).toBe(true);
  });
  it('required parsers are not optional', () => {
    expect(quantity('x').optional).toBe(false);
  });
});
