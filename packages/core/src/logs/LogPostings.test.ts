import { describe, expect, it } from 'vitest';
import type { RawLog, StoredReceipt } from '../chain/types.js';
import { toData } from '../util/hex.js';
import { LogPostings } from './LogPostings.js';
import { PostingList } from './PostingList.js';

const bytes = (fill: number, length: number) => new Uint8Array(length).fill(fill);
const A = bytes(0xa1, 20);
const B = bytes(0xb2, 20);
const T1 = bytes(0x11, 32);
const T2 = bytes(0x22, 32);
const hex = toData;

function receipts(...logs: RawLog[][]): StoredReceipt[] {
  return logs.map((l) => ({
    cumulativeGasUsed: 0n,
    gasUsed: 0n,
    logs: l,
    bloom: new Uint8Array(256),
    effectiveGasPrice: 0n,
  }));
}

describe('PostingList', () => {
  it('keeps ascending numbers once each and answers ranges by binary search', () => {
    const list = new PostingList();
    for (const n of [1, 3, 3, 7, 8, 20]) expect(list.add(n)).toBe(true);
    expect(list.length).toBe(5);
    expect(list.range(2, 8)).toEqual([3, 7, 8]);
    expect(list.range(21, 30)).toEqual([]);
    expect(list.range(0, 1)).toEqual([1]);
    expect(list.add(5)).toBe(false);
    list.dropAbove(7);
    expect(list.range(0, 100)).toEqual([1, 3, 7]);
    expect(list.last).toBe(7);
  });

  it('holds block numbers above 2^32 exactly and grows past its first buffer', () => {
    const list = new PostingList();
    const base = 2 ** 40;
    for (let i = 0; i < 1000; i++) list.add(base + i * 3);
    expect(list.range(base + 3, base + 9)).toEqual([base + 3, base + 6, base + 9]);
    list.dropAbove(base);
    expect(list.range(0, Number.MAX_SAFE_INTEGER)).toEqual([base]);
  });
});

describe('LogPostings', () => {
  const build = () => {
    const p = new LogPostings();
    expect(p.add(2, receipts([[A, [T1], new Uint8Array()]]))).toBe(true);
    expect(p.add(3, receipts([], [[B, [T2, T1], new Uint8Array()]]))).toBe(true);
    expect(p.add(5, receipts([[A, [], new Uint8Array()]], [[B, [T1], new Uint8Array()]]))).toBe(true);
    expect(p.add(6, receipts([]))).toBe(true); // no logs: named by no list
    return p;
  };

  it('names the blocks of an address, of a first topic, of an OR-set of either, and both at once', () => {
    const p = build();
    expect(p.blocks(0, 10, [hex(A)], null)).toEqual([2, 5]);
    expect(p.blocks(0, 10, [hex(A), hex(B)], null)).toEqual([2, 3, 5]);
    expect(p.blocks(0, 10, [], [hex(T1)])).toEqual([2, 5]);
    expect(p.blocks(0, 10, [], [hex(T2), hex(T1)])).toEqual([2, 3, 5]);
    expect(p.blocks(0, 10, [hex(B)], [hex(T1)])).toEqual([5]);
    expect(p.blocks(0, 10, [], null)).toEqual([2, 3, 5]);
    expect(p.blocks(3, 4, [], null)).toEqual([3]);
    expect(p.blocks(0, 10, [toData(bytes(0xcc, 20))], null)).toEqual([]);
    // a topic at position 1 only is no first topic
    expect(p.blocks(0, 10, [], [hex(bytes(0x33, 32))])).toEqual([]);
  });

  it('drops removed blocks from every list they touched and refuses blocks out of order', () => {
    const p = build();
    p.dropAbove(2, [
      receipts([], [[B, [T2, T1], new Uint8Array()]]),
      receipts([[A, [], new Uint8Array()]], [[B, [T1], new Uint8Array()]]),
    ]);
    expect(p.blocks(0, 10, [hex(A), hex(B)], null)).toEqual([2]);
    expect(p.blocks(0, 10, [], [hex(T2)])).toEqual([]);
    expect(p.last).toBe(2);
    expect(p.add(2, receipts([[B, [], new Uint8Array()]]))).toBe(false);
    expect(p.add(4, receipts([[B, [T2], new Uint8Array()]]))).toBe(true);
    expect(p.blocks(0, 10, [hex(B)], [hex(T2)])).toEqual([4]);
  });

  it('keys each log by its own bytes when one buffer is reused for several addresses and topics', () => {
    const p = new LogPostings();
    const address = new Uint8Array(20);
    const topic = new Uint8Array(32);
    const log = (a: Uint8Array, t: Uint8Array): RawLog => {
      address.set(a);
      topic.set(t);
      return [address, [topic], new Uint8Array()];
    };
    // Each block's log is written into the same two buffers before it is added.
    expect(p.add(1, receipts([log(A, T1)]))).toBe(true);
    expect(p.add(2, receipts([log(A, T1)]))).toBe(true);
    expect(p.add(3, receipts([log(B, T2)]))).toBe(true);
    expect(p.add(4, receipts([log(A, T2)]))).toBe(true);
    expect(
      p.add(
        5,
        receipts([
          [A, [T1], new Uint8Array()],
          [B, [T1], new Uint8Array()],
        ]),
      ),
    ).toBe(true);
    expect(p.blocks(0, 10, [hex(A)], null)).toEqual([1, 2, 4, 5]);
    expect(p.blocks(0, 10, [hex(B)], null)).toEqual([3, 5]);
    expect(p.blocks(0, 10, [], [hex(T1)])).toEqual([1, 2, 5]);
    expect(p.blocks(0, 10, [], [hex(T2)])).toEqual([3, 4]);
    // A revert names each removed block's logs: B's list loses 5 and 3, T2's loses 4 and 3.
    p.dropAbove(2, [
      receipts([
        [A, [T1], new Uint8Array()],
        [B, [T1], new Uint8Array()],
      ]),
      receipts([[A, [T2], new Uint8Array()]]),
      receipts([[B, [T2], new Uint8Array()]]),
    ]);
    expect(p.blocks(0, 10, [hex(A), hex(B)], null)).toEqual([1, 2]);
    expect(p.blocks(0, 10, [hex(B)], null)).toEqual([]);
    expect(p.blocks(0, 10, [], [hex(T2)])).toEqual([]);
    expect(p.blocks(0, 10, [], [hex(T1)])).toEqual([1, 2]);
  });
});
