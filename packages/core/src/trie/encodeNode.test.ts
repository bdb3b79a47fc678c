import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeNode } from './encodeNode.js';
import { type NestedRaw, type Node, type Ref, branch, decodeNode, ext, leaf } from './nodes.js';

/*
 * The reference: the node's raw list as the Yellow Paper (appendix C and D) builds it, encoded by
 * @ethereumjs/rlp. Hex-prefix is written out here independently of the encoder under test.
 */
function hexPrefix(path: Uint8Array, isLeaf: boolean): Uint8Array {
  const nibbles = [...path];
  const flag = (isLeaf ? 2 : 0) + (nibbles.length % 2);
  const all = nibbles.length % 2 ? [flag, ...nibbles] : [flag, 0, ...nibbles];
  const out = new Uint8Array(all.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = (all[2 * i] << 4) | all[2 * i + 1];
  return out;
}

function refRaw(c: Ref | null): Uint8Array | NestedRaw {
  if (c === null) return new Uint8Array(0);
  if (c.t === 3) return c.hash;
  const enc = RLP.encode(rawOf(c));
  return enc.length < 32 ? (RLP.decode(enc) as NestedRaw) : keccak_256(enc);
}

function rawOf(n: Node): NestedRaw {
  if (n.t === 0) return [hexPrefix(n.path, true), n.value];
  if (n.t === 1) return [hexPrefix(n.path, false), refRaw(n.child)];
  return [...n.children.map(refRaw), n.value ?? new Uint8Array(0)];
}

/** Encodes every node under `n` as CowTrie does, children first. */
function memoize(n: Ref): void {
  if (n.t === 3 || n.enc || n.hash) return;
  if (n.t === 1) memoize(n.child);
  if (n.t === 2) for (const c of n.children) if (c) memoize(c);
  const enc = encodeNode(n);
  if (enc.length < 32) n.enc = enc;
  else n.hash = keccak_256(enc);
}

const nibbles = (max: number) =>
  fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 0, maxLength: max }).map((a) => Uint8Array.from(a));
// Values from 1 byte (under 0x80 or not) to long strings (length of length), the shapes RLP distinguishes.
const value = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 1 }),
  fc.uint8Array({ minLength: 2, maxLength: 60 }),
  fc.uint8Array({ minLength: 250, maxLength: 300 }),
);
const hashRef: fc.Arbitrary<Ref> = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((hash) => ({ t: 3, hash }));

/** Random nodes whose children are hashes, small nodes (embedded) or large ones (hashed). */
const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node; child: Ref }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(nibbles(70), value).map(([p, v]) => leaf(p, v)),
    fc.tuple(nibbles(70), tie('child')).map(([p, c]) => ext(p.length > 0 ? p : Uint8Array.of(1), c)),
    fc
      .tuple(fc.array(fc.option(tie('child'), { nil: null }), { minLength: 16, maxLength: 16 }), fc.option(value))
      .map(([children, v]) => branch(children, v)),
  ),
  child: fc.oneof({ depthSize: 'small' }, hashRef, tie('node')),
})).node;

describe('encodeNode', () => {
  it('writes the RLP of the node as @ethereumjs/rlp writes its raw list', () => {
    fc.assert(
      fc.property(node, (n) => {
        memoize(n);
        expect(encodeNode(n)).toEqual(RLP.encode(rawOf(n)));
      }),
      { numRuns: 1000 },
    );
  });

  it('embeds a child under 32 bytes and decodes back to the same node', () => {
    const small = leaf(Uint8Array.of(3), Uint8Array.of(5));
    const children: (Ref | null)[] = new Array(16).fill(null);
    children[2] = small;
    const b = branch(children, null);
    memoize(b);
    const enc = encodeNode(b);
    expect(enc).toEqual(RLP.encode(rawOf(b)));
    // The embedded child is its list, not a hash.
    const back = decodeNode(enc);
    expect(back.t === 2 && back.children[2]).toMatchObject({ t: 0, path: Uint8Array.of(3), value: Uint8Array.of(5) });
  });
});
