import { RLP } from '@ethereumjs/rlp';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeNode } from './encodeNode.js';
import type { NestedRaw } from './nodes.js';

const bytes = fc.oneof(
  fc.uint8Array({ minLength: 0, maxLength: 2 }),
  fc.uint8Array({ minLength: 30, maxLength: 60 }),
  fc.uint8Array({ minLength: 0, maxLength: 300 }),
);

describe('encodeNode', () => {
  it('encodes exactly as @ethereumjs/rlp for lists of byte strings (2 and 17 items)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(bytes, { minLength: 2, maxLength: 2 }), fc.array(bytes, { minLength: 17, maxLength: 17 })),
        (items) => {
          expect(encodeNode(items)).toEqual(RLP.encode(items));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('falls back to @ethereumjs/rlp for nested (embedded) nodes', () => {
    const nested: NestedRaw = [Uint8Array.of(0x20), [Uint8Array.of(0x31), Uint8Array.of(5)]];
    expect(encodeNode(nested)).toEqual(RLP.encode(nested));
  });
});
