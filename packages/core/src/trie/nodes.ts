import { RLP } from '@ethereumjs/rlp';
import { fromHexPrefix } from './nibbles.js';

/**
 * Trie nodes are immutable: an update copies the path it changes and shares everything else,
 * so a checkpoint is just a saved root and every node's encoding and hash are computed once.
 * Every node is created with its `enc` and `hash` fields (undefined until encoded), so nodes
 * keep one shape per kind and the hot paths that read them stay monomorphic enough; they sit on
 * the node itself, so a parent's encoding reads a child's hash with no object in between.
 *
 * Once a node is encoded, a parent embeds its RLP when it is under 32 bytes (`enc`) and its hash
 * otherwise (Yellow Paper appendix D); a long node's RLP is only in the node database.
 */
export interface Leaf {
  readonly t: 0;
  readonly path: Uint8Array;
  readonly value: Uint8Array;
  /** RLP of the node, once encoded, when it is under 32 bytes. */
  enc: Uint8Array | undefined;
  /** keccak of the RLP, once encoded, when it is ≥ 32 bytes or the node is a root; for a node read from the db, its key. */
  hash: Uint8Array | undefined;
}
export interface Ext {
  readonly t: 1;
  readonly path: Uint8Array;
  readonly child: Ref;
  /** RLP of the node, once encoded, when it is under 32 bytes. */
  enc: Uint8Array | undefined;
  /** keccak of the RLP, once encoded, when it is ≥ 32 bytes or the node is a root; for a node read from the db, its key. */
  hash: Uint8Array | undefined;
}
export interface Branch {
  readonly t: 2;
  readonly children: readonly (Ref | null)[];
  readonly value: Uint8Array | null;
  /** RLP of the node, once encoded, when it is under 32 bytes. */
  enc: Uint8Array | undefined;
  /** keccak of the RLP, once encoded, when it is ≥ 32 bytes or the node is a root; for a node read from the db, its key. */
  hash: Uint8Array | undefined;
}
/** A node not loaded yet: only its hash is known. */
export interface HashRef {
  readonly t: 3;
  readonly hash: Uint8Array;
}
export type Node = Leaf | Ext | Branch;
export type Ref = Node | HashRef;

export type NestedRaw = (Uint8Array | NestedRaw)[];

export const leaf = (path: Uint8Array, value: Uint8Array): Node => ({
  t: 0,
  path,
  value,
  enc: undefined,
  hash: undefined,
});
export const ext = (path: Uint8Array, child: Ref): Node => ({ t: 1, path, child, enc: undefined, hash: undefined });
export const branch = (children: readonly (Ref | null)[], value: Uint8Array | null): Node => ({
  t: 2,
  children,
  value,
  enc: undefined,
  hash: undefined,
});

/** Whether a node's encoding (and, if long, its hash) is known. */
export const isEncoded = (n: Node): boolean => n.enc !== undefined || n.hash !== undefined;

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
