import { describe, expect, it } from 'vitest';
import { TouchedSet } from './blockRows.js';

const addr = (n: number): Uint8Array => Uint8Array.from({ length: 20 }, (_, i) => (i === 19 ? n : 0x11));

describe('TouchedSet', () => {
  it('keeps each address once, in first-touch order, with its last transaction, past the linear search too', () => {
    const set = new TouchedSet();
    const slots: number[] = [];
    // 20 addresses (a Map by key string past 8), each touched again later by a fresh array of the same bytes.
    for (let n = 0; n < 20; n++) slots.push(set.touch(addr(n), n));
    for (let n = 0; n < 20; n += 3) expect(set.touch(addr(n), null)).toBe(slots[n]);
    for (let n = 1; n < 20; n += 4) expect(set.touch(addr(n), 100 + n)).toBe(slots[n]);
    expect(slots).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(set.list.map((t) => t.address[19])).toEqual(slots);
    expect(set.list.map((t) => t.txIndex)).toEqual(slots.map((n) => (n % 4 === 1 ? 100 + n : n)));
  });

  it('keeps a null transaction for an address only touched without one', () => {
    const set = new TouchedSet();
    set.touch(addr(1), null);
    set.touch(addr(2), 0);
    set.touch(addr(1), null);
    expect(set.list.map((t) => [t.address[19], t.txIndex])).toEqual([
      [1, null],
      [2, 0],
    ]);
  });
});
