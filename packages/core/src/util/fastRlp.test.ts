import { RLP, decode as stockDecode, encode as stockEncode } from '@ethereumjs/rlp';
import { describe, expect, it } from 'vitest';
import { installFastRlp } from './fastRlp.js';

// The module's own `encode`/`decode` exports stay the stock functions: the reference here.
installFastRlp();

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Item = Uint8Array | Item[];

function randomBytes(r: () => number): Uint8Array {
  const kind = r();
  // Lengths around every boundary: empty, one byte (< 0x80 and ≥ 0x80), 55/56, long.
  const len =
    kind < 0.2
      ? 0
      : kind < 0.5
        ? 1
        : kind < 0.7
          ? Math.floor(r() * 60)
          : kind < 0.9
            ? 54 + Math.floor(r() * 4)
            : Math.floor(r() * 600);
  const b = new Uint8Array(len);
  for (let i = 0; i < len; i++) b[i] = Math.floor(r() * 256);
  return b;
}

function randomItem(r: () => number, depth: number): Item {
  if (depth > 3 || r() < 0.55) return randomBytes(r);
  // Mostly short lists; now and then one long enough for the long list form.
  const n = Math.floor(r() * (depth === 0 && r() < 0.2 ? 40 : 5));
  return Array.from({ length: n }, () => randomItem(r, depth + 1));
}

function errorOf(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('fast RLP', () => {
  it('is installed on the RLP object every @ethereumjs package calls', () => {
    expect(RLP.encode).not.toBe(stockEncode);
    expect(RLP.decode).not.toBe(stockDecode);
  });

  it('encodes every list exactly as the stock encoder', () => {
    const r = rng(7);
    for (let i = 0; i < 1500; i++) {
      const item = [randomItem(r, 0), randomItem(r, 1)];
      expect(RLP.encode(item)).toEqual(stockEncode(item));
    }
  });

  it('encodes a byte string of any length exactly as the stock encoder', () => {
    for (const n of [0, 1, 2, 31, 32, 55, 56, 57, 255, 256, 70_000]) {
      for (const first of [0x00, 0x7f, 0x80, 0xff]) {
        const item = new Uint8Array(n).fill(0x42);
        if (n > 0) item[0] = first;
        expect(RLP.encode(item), `${n} bytes from ${first}`).toEqual(stockEncode(item));
      }
    }
  });

  it('takes the stock path for scalars and non-byte items, with the same results', () => {
    const single = Uint8Array.of(5);
    // A one-byte input below 0x80 is its own encoding: the same array, as before.
    expect(RLP.encode(single)).toBe(stockEncode(single));
    const mixed = [1, 0n, 'dog', '0x0400', null, undefined, [Uint8Array.of(0x80), 300]];
    expect(RLP.encode(mixed)).toEqual(stockEncode(mixed));
    expect(RLP.encode(1024)).toEqual(stockEncode(1024));
  });

  it('decodes to fresh copies equal to the stock decoder, also in stream mode', () => {
    const r = rng(11);
    for (let i = 0; i < 600; i++) {
      const enc = stockEncode([randomItem(r, 0), randomItem(r, 0)]);
      const fast = RLP.decode(enc);
      expect(fast).toEqual(stockDecode(enc));
      const tail = Uint8Array.of(0x01, 0x02);
      const joined = new Uint8Array(enc.length + 2);
      joined.set(enc);
      joined.set(tail, enc.length);
      expect(RLP.decode(joined, true)).toEqual(stockDecode(joined, true));
    }
    // Mutating what was decoded leaves the input alone (the stock decoder copies too).
    const enc = stockEncode([Uint8Array.of(1, 2, 3)]);
    const out = RLP.decode(enc) as Uint8Array[];
    out[0][0] = 9;
    expect(enc).toEqual(stockEncode([Uint8Array.of(1, 2, 3)]));
  });

  it('rejects invalid input with the stock decoder’s error', () => {
    const cases: Uint8Array[] = [
      Uint8Array.of(0x81, 0x05), // single byte < 0x80 with a prefix
      Uint8Array.of(0x83, 0x01), // string longer than the input
      Uint8Array.of(0xb8, 0x05, 1, 2, 3, 4, 5), // long form for a short string
      Uint8Array.of(0xb9, 0x00, 0x40), // length with a leading zero
      Uint8Array.of(0xb8), // no length bytes
      Uint8Array.of(0xc3, 0x01), // list longer than the input
      Uint8Array.of(0xf8, 0x03, 1, 2, 3), // long form for a short list
      Uint8Array.of(0xc2, 0x82, 0x01), // item overrunning its list
      Uint8Array.of(0x01, 0x02), // trailing bytes
      Uint8Array.of(0xfb, 0xff, 0xff, 0xff, 0xff), // absurd length
    ];
    for (const c of cases) {
      const expected = errorOf(() => stockDecode(c));
      expect(expected, `stock accepts ${c}`).toBeDefined();
      expect(errorOf(() => RLP.decode(c))).toBe(expected);
    }
    const r = rng(3);
    // Random truncations and corruptions: both accept or both reject, alike.
    for (let i = 0; i < 3000; i++) {
      const enc = stockEncode([randomItem(r, 0)]);
      const bad = enc.slice(0, Math.floor(r() * enc.length));
      if (bad.length > 0 && r() < 0.5) bad[Math.floor(r() * bad.length)] = Math.floor(r() * 256);
      const expected = errorOf(() => stockDecode(bad));
      expect(errorOf(() => RLP.decode(bad))).toBe(expected);
      if (expected === undefined) expect(RLP.decode(bad)).toEqual(stockDecode(bad));
    }
  });

  it('passes non-byte input to the stock decoder', () => {
    expect(RLP.decode('0x8203e8')).toEqual(stockDecode('0x8203e8'));
    expect(RLP.decode(new Uint8Array(0))).toEqual(stockDecode(new Uint8Array(0)));
  });
});
