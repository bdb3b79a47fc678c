import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { CallResultCache, callRequestKey } from './CallResultCache.js';

const value = (n: number) => ({ returnValue: new Uint8Array(n) });

describe('CallResultCache', () => {
  it('keeps recently read entries and drops the least recently used generation past its entry bound', () => {
    const c = new CallResultCache(4, 1 << 20);
    c.set('a', value(1));
    c.set('b', value(1));
    c.set('c', value(1)); // young was full (2): a, b become old
    expect(c.get('a')).toBeDefined(); // read back into young: c, a
    c.set('d', value(1)); // young full again: c, a become old, b is dropped
    expect(c.get('b')).toBeUndefined();
    for (const k of ['a', 'c', 'd']) expect(c.get(k)).toBeDefined();
    expect(c.size).toBeLessThanOrEqual(4);
  });

  it('stays within its entry and byte bounds, and never keeps oversized entries', () => {
    const c = new CallResultCache(100, 4_000);
    for (let i = 0; i < 50; i++) {
      c.set(`k${i}`, value(500));
      expect(c.size).toBeLessThanOrEqual(100);
    }
    // each entry costs over 500 bytes: at most 2 kB per generation
    expect(c.size).toBeLessThanOrEqual(6);
    expect(c.get('k49')).toBeDefined();
    expect(c.get('k0')).toBeUndefined();
    const big = new CallResultCache();
    big.set('x', value(70_000));
    expect(big.get('x')).toBeUndefined();
    for (let i = 0; i < 10_000; i++) big.set(`k${i}`, value(1));
    expect(big.size).toBeLessThanOrEqual(4_096);
  });

  it('replacing an entry keeps the byte count right', () => {
    const c = new CallResultCache(100, 3_000);
    c.set('a', value(1_000));
    c.set('a', value(10));
    c.set('b', value(1_000));
    expect(c.get('a')).toBeDefined();
    expect(c.get('b')).toBeDefined();
  });

  it('clear drops everything', () => {
    const c = new CallResultCache();
    c.set('a', value(1));
    c.clear();
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
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
