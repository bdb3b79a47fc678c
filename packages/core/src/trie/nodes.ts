import { RLP } from '@ethereumjs/rlp';
import { fromHexPrefix, hexPrefix } from './nibbles.js';

/**
 * Trie nodes are immutable: an update copies the path it changes and shares everything else,
 * so a checkpoint is just a saved root and every node's encoding and hash are computed once.
 */
export interface Leaf {
  readonly t: 0;
  readonly path: Uint8Array;
  readonly value: Uint8Array;
  memo?: Memo;
}
export interface Ext {
  readonly t: 1;
  readonly path: Uint8Array;
  readonly child: Ref;
}
export interface Branch {
  readonly t: 2;
  readonly children: readonly (Ref | null)[];
  readonly value: Uint8Array | null;
}
/** A node not loaded yet: only its hash is known. */
export interface HashRef {
  readonly t: 3;
  readonly hash: Uint8Array;
}
export type Node = (Leaf | Ext | Branch) & { memo?: Memo };
export type Ref = Node | HashRef;

/** What a node's encoding yields, cached on the node. */
export interface Memo {
  /** RLP of the node. */
  enc: Uint8Array;
  /** What a parent embeds: the node's raw list (if its RLP is < 32 bytes) or its hash. */
  ref: Uint8Array | NestedRaw;
  /** keccak(enc), when enc is ≥ 32 bytes or the node is a root. */
  hash?: Uint8Array;
}
export type NestedRaw = (Uint8Array | NestedRaw)[];

const EMPTY = new Uint8Array(0);

export const leaf = (path: Uint8Array, value: Uint8Array): Node => ({ t: 0, path, value });
export const ext = (path: Uint8Array, child: Ref): Node => ({ t: 1, path, child });
export const branch = (children: readonly (Ref | null)[], value: Uint8Array | null): Node => ({
  t: 2,
  children,
  value,
});

/** The list an RLP encoder takes for this node; children must already be memoized. */
export function rawOf(n: Node, childRef: (r: Ref) => Uint8Array | NestedRaw): NestedRaw {
  switch (n.t) {
    case 0:
      return [hexPrefix(n.path, true), n.value];
    case 1:
      return [hexPrefix(n.path, false), childRef(n.child)];
    default: {
      const raw: NestedRaw = new Array(17);
      for (let i = 0; i < 16; i++) {
        const c = n.children[i];
        raw[i] = c ? childRef(c) : EMPTY;
      }
      raw[16] = n.value ?? EMPTY;
      return raw;
    }
  }
}

/** Decodes a stored node (or an embedded raw list) into a node whose children are refs. */
export function decodeRaw(raw: NestedRaw): Node {
  if (raw.length === 17) {
    const children: (Ref | null)[] = new Array(16);
    for (let i = 0; i < 16; i++) children[i] = childFromRaw(raw[i]);
    const v = raw[16] as Uint8Array;
    return branch(children, v.length > 0 ? v : null);
  }
  if (raw.length !== 2) throw new Error(`invalid trie node: list of ${raw.length} items`);
  const { path, leaf: isLeaf } = fromHexPrefix(raw[0] as Uint8Array);
  if (isLeaf) return leaf(path, raw[1] as Uint8Array);
  const child = childFromRaw(raw[1]);
  if (!child) throw new Error('invalid trie node: extension without child');
  return ext(path, child);
}

function childFromRaw(r: Uint8Array | NestedRaw): Ref | null {
  if (r instanceof Uint8Array) {
    if (r.length === 0) return null;
    if (r.length !== 32) throw new Error(`invalid trie node reference of ${r.length} bytes`);
    return { t: 3, hash: r };
  }
  return decodeRaw(r);
}

export function decodeNode(enc: Uint8Array): Node {
  return decodeRaw(RLP.decode(enc) as NestedRaw);
}
