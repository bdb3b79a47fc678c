import { RLP } from '@ethereumjs/rlp';
import type { DB } from '@ethereumjs/util';
import { CowTrie, type NodeStore, TrieContext } from './CowTrie.js';

/**
 * A database that keeps nothing: the tries of one block's transactions, receipts and
 * withdrawals are only ever asked for their root, and their nodes are never read back.
 */
const nullDb: DB<string, string | Uint8Array> & NodeStore = {
  getNode: () => undefined,
  putNode: () => undefined,
  get: async () => undefined,
  put: async () => undefined,
  del: async () => undefined,
  batch: async () => undefined,
  shallowCopy: () => nullDb,
  open: async () => undefined,
};

const contexts = new WeakMap<(b: Uint8Array) => Uint8Array, TrieContext>();

function contextFor(keccak: (b: Uint8Array) => Uint8Array): TrieContext {
  let ctx = contexts.get(keccak);
  if (!ctx) {
    ctx = new TrieContext(nullDb, keccak, {}, false, 0);
    contexts.set(keccak, ctx);
  }
  return ctx;
}

/**
 * Root of the trie mapping rlp(i) to values[i]: a block's transactions, receipts and
 * withdrawals roots. Same result as filling an @ethereumjs/mpt trie (tested), without building
 * one per block: an MPT's constructor and put path cost more than a one-transaction block's
 * whole state root.
 */
export function orderedTrieRoot(values: readonly Uint8Array[], keccak: (b: Uint8Array) => Uint8Array): Uint8Array {
  if (values.length === 1 && values[0].length > 0) return oneValueRoot(values[0], keccak);
  const ctx = contextFor(keccak);
  if (values.length === 0) return ctx.emptyRoot;
  const trie = new CowTrie(ctx);
  // Synchronous: every node of a trie built here is in memory (putNow never has one to read).
  // The awaited put was a promise and microtask turns per value, three tries per block.
  for (let i = 0; i < values.length; i++) {
    if (trie.putNow(RLP.encode(i), values[i]) !== undefined) throw new Error('orderedTrieRoot: a node had to be read');
  }
  return trie.root();
}

/**
 * The hex-prefix encoding of key rlp(0) = 0x80, nibbles [8, 0], as a leaf: flag nibble 2 (leaf,
 * even length) and a zero pad nibble, then the key's byte.
 */
const FIRST_KEY_LEAF_PATH = Uint8Array.of(0x20, 0x80);

/**
 * Root of a trie holding one value under rlp(0): the hash of its only node, a leaf with the whole
 * key as its path (a root is hashed whatever its length). An automined block has one
 * transaction and one receipt: two roots a block without a trie, its nodes and its encoder.
 */
function oneValueRoot(value: Uint8Array, keccak: (b: Uint8Array) => Uint8Array): Uint8Array {
  return keccak(RLP.encode([FIRST_KEY_LEAF_PATH, value]));
}
