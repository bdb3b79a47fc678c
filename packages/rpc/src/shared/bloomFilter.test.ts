import { Address } from '@ethereumjs/util';
import { Bloom } from '@ethereumjs/vm';
import { describe, expect, it } from 'vitest';
import type { LogFilter } from '../params/index.js';
import { BloomFilter } from './bloomFilter.js';

function bytes(len: number, seed: number): Uint8Array {
  const out = new Uint8Array(len);
  let x = seed * 2654435761;
  for (let i = 0; i < len; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const addr = (seed: number) => new Address(bytes(20, seed));

describe('BloomFilter', () => {
  it("answers as @ethereumjs's Bloom.check over the filter's addresses and topic positions", () => {
    for (let round = 0; round < 300; round++) {
      const bloom = new Bloom();
      // A block's bloom holds a few logs' addresses and topics.
      for (let i = 0; i < (round % 5) + 1; i++) bloom.add(addr(round * 10 + i).bytes);
      for (let i = 0; i < (round % 3) + 1; i++) bloom.add(bytes(32, round * 7 + i));
      const f: LogFilter = {
        addresses: [addr(round * 10 + (round % 7)), addr(10_000 + round)].slice(0, (round % 2) + 1),
        topics: [
          round % 4 === 0 ? null : [bytes(32, round * 7), bytes(32, 20_000 + round)],
          round % 3 === 0 ? [] : [bytes(32, round * 7 + 1)],
        ],
      } as unknown as LogFilter;
      const stock =
        (f.addresses.length === 0 || f.addresses.some((a) => bloom.check(a.bytes))) &&
        f.topics.every((pos) => pos === null || pos.length === 0 || pos.some((t) => bloom.check(t)));
      expect(new BloomFilter(f).mayMatch(bloom.bitvector)).toBe(stock);
    }
  });

  it('passes every block for an empty filter and refuses an address the bloom lacks', () => {
    const bloom = new Bloom();
    bloom.add(addr(1).bytes);
    expect(new BloomFilter({ addresses: [], topics: [] } as unknown as LogFilter).mayMatch(bloom.bitvector)).toBe(true);
    expect(
      new BloomFilter({ addresses: [addr(1)], topics: [] } as unknown as LogFilter).mayMatch(bloom.bitvector),
    ).toBe(true);
    expect(
      new BloomFilter({ addresses: [addr(2)], topics: [] } as unknown as LogFilter).mayMatch(bloom.bitvector),
    ).toBe(false);
  });
});
