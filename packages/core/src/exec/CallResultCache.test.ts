import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { CallResultCache, callRequestKey } from './CallResultCache.js';

const value = (n: number) => ({ returnValue: new Uint8Array(n) });

describe('CallResultCache', () => {
  it('drops the least recently used entry past its entry bound', () => {
    const c = new CallResultCache(2, 1 << 20);
    c.set('a', value(1));
    c.set('b', value(1));
    expect(c.get('a')).toBeDefined(); // a is now newer than b
    c.set('c', value(1));
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBeDefined();
    expect(c.get('c')).toBeDefined();
    expect(c.size).toBe(2);
  });

  it('drops entries past its byte bound and never keeps oversized return data', () => {
    const c = new CallResultCache(100, 2_000);
    for (let i = 0; i < 10; i++) c.set(`k${i}`, value(500));
    expect(c.size).toBeLessThanOrEqual(3);
    expect(c.get('k9')).toBeDefined();
    expect(c.get('k0')).toBeUndefined();
    const big = new CallResultCache();
    big.set('x', value(70_000));
    expect(big.get('x')).toBeUndefined();
  });

  it('replacing an entry keeps the byte count right', () => {
    const c = new CallResultCache(100, 1_500);
    c.set('a', value(1_000));
    c.set('a', value(10));
    c.set('b', value(1_000));
    expect(c.get('a')).toBeDefined();
    expect(c.get('b')).toBeDefined();
  });
});

describe('callRequestKey', () => {
  const to = new Address(new Uint8Array(20).fill(1));
  it('tells apart every field that changes a call, and absent from zero', () => {
    const base = { to, data: Uint8Array.of(1, 2) };
    const variants = [
      base,
      { ...base, from: to },
      { ...base, to: undefined },
      { ...base, to: null },
      { ...base, gas: 0n },
      { ...base, gas: 1n },
      { ...base, gasPrice: 0n },
      { ...base, maxFeePerGas: 1n },
      { ...base, maxPriorityFeePerGas: 1n },
      { ...base, value: 0n },
      { ...base, nonce: 0n },
      { ...base, type: 2 },
      { ...base, chainId: 1n },
      { ...base, data: Uint8Array.of(1, 3) },
      { ...base, data: undefined },
      { ...base, accessList: [] },
      { ...base, accessList: [{ address: to, storageKeys: [new Uint8Array(32)] }] },
      { ...base, authorizationList: [] },
      { ...base, blobVersionedHashes: [] },
      { ...base, maxFeePerBlobGas: 1n },
    ];
    const keys = variants.map(callRequestKey);
    expect(new Set(keys).size).toBe(variants.length);
    expect(callRequestKey({ ...base })).toBe(keys[0]);
  });

  it('does not key large calldata', () => {
    expect(callRequestKey({ to, data: new Uint8Array(5_000) })).toBeUndefined();
  });
});
