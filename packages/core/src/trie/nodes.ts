import { RLP } from '@ethereumjs/rlp';
import { fromHexPrefix } from './nibbles.js';

/**
 * Trie nodes are immutable: an update copies the path it changes and shares everything else,
 * so a checkpoint is just a saved root and every node's encoding and hash are computed once.
 * Every node is created with its `memo` field (undefined until encoded), so nodes keep one
 * shape per kind and the hot paths that read `t`, `memo` and children stay monomorphic enough.
 */
export interface Leaf {
  readonly t: 0;
  readonly path: Uint8Array;
  readonly value: Uint8Array;
  memo: Memo | undefined;
}
export interface Ext {
  readonly t: 1;
  readonly path: Uint8Array;
  readonly child: Ref;
  memo: Memo | undefined;
}
export interface Branch {
  readonly t: 2;
  readonly children: readonly (Ref | null)[];
  readonly value: Uint8Array | null;
  memo: Memo | undefined;
}
/** A node not loaded yet: only its hash is known. */
export interface HashRef {
  readonly t: 3;
  readonly hash: Uint8Array;
}
export type Node = Leaf | Ext | Branch;
export type Ref = Node | HashRef;

/**
 * What a node's encoding yields, cached on the node. A parent embeds the node's RLP itself when
 * it is under 32 bytes, and its hash otherwise (Yellow Paper appendix D); so only a short
 * node keeps its RLP (a long one's is in the node database, under its hash).
 */
export interface Memo {
  /** RLP of the node when it is under 32 bytes. */
  enc: Uint8Array | undefined;
  /** keccak of the RLP, when it is ≥ 32 bytes or the node is a root; for a node read from the db, its key. */
  hash: Uint8Array | undefined;
}
export type NestedRaw = (Uint8Array | NestedRaw)[];

export const leaf = (path: Uint8Array, value: Uint8Array): Node => ({ t: 0, path, value, memo: undefined });
export const ext = (path: Uint8Array, child: Ref): Node => ({ t: 1, path, child, memo: undefined });
export const branch = (children: readonly (Ref | null)[], value: Uint8Array | null): Node => ({
  t: 2,
  children,
  value,
  memo: undefined,
});

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
