import { describe, expect, it } from 'vitest';
import { HttpError } from './errors.js';
import { parseAddress, parseBlockId, parseEnumList, parseHash, parseIntegerString, parseUint } from './params.js';

function pointerOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof HttpError && e.status === 422)
      return (e.body as { errors: { source: { pointer: string } }[] }).errors[0].source.pointer;
    throw e;
  }
  return undefined;
}

describe('explorer parameter parsers', () => {
  it('accept well-formed values', () => {
    expect(parseAddress('0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'a')).toHaveLength(20);
    expect(parseHash(`0x${'ab'.repeat(32)}`, 'h')).toHaveLength(32);
    expect(parseUint('42', 'n')).toBe(42n);
    expect(parseIntegerString('-5', 'v')).toBe(-5n);
    expect(parseBlockId('7')).toEqual({ kind: 'number', number: 7n });
    expect(parseBlockId(`0x${'00'.repeat(32)}`).kind).toBe('hash');
    expect(parseEnumList('[ERC-20,ERC-721]', 'type', ['ERC-20', 'ERC-721', 'ERC-1155'])).toEqual(['ERC-20', 'ERC-721']);
  });

  it('answer 422 naming the parameter for malformed input', () => {
    expect(pointerOf(() => parseAddress('0x12', 'address_hash_param'))).toBe('/address_hash_param');
    expect(pointerOf(() => parseHash('0xzz', 'transaction_hash_param'))).toBe('/transaction_hash_param');
    expect(pointerOf(() => parseUint('-1', 'block_number'))).toBe('/block_number');
    expect(pointerOf(() => parseUint('1e3', 'index'))).toBe('/index');
    expect(pointerOf(() => parseUint('18446744073709551616', 'block_number'))).toBe('/block_number');
    expect(pointerOf(() => parseBlockId('123qwe'))).toBe('/block_hash_or_number_param');
    expect(pointerOf(() => parseEnumList('ERC-20,ERC-9', 'type', ['ERC-20']))).toBe('/type');
    expect(pointerOf(() => parseIntegerString('1.5', 'value'))).toBe('/value');
  });
});
