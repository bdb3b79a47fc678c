import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { type DB, ValueEncoding, bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util';
import { Lru } from '../util/Lru.js';
import { encodeNode } from './encodeNode.js';
import { commonPrefix, concatNibbles, toNibbles } from './nibbles.js';
import { type Memo, type NestedRaw, type Node, type Ref, branch, decodeNode, ext, leaf, rawOf } from './nodes.js';

type Value = string | Uint8Array;

/** What tries of one chain share: the node database, decoded nodes, the hash function. */
export class TrieContext {
  /** Decoded nodes by hash: nodes are immutable, so any trie of the chain may share them. */
  readonly decoded: Lru<string, Node>;
  readonly emptyRoot: Uint8Array;

  constructor(
    readonly db: DB<string, Value>,
    readonly keccak: (b: Uint8Array) => Uint8Array,
    readonly mptOptions: ConstructorParameters<typeof MerklePatriciaTrie>[0],
    /** Keys are hashed before use (state and storage tries); false for tests of short-key tries. */
    readonly hashKeys = true,
    /** How many decoded nodes to keep. */
    decodedNodes = 100_000,
  ) {
    this.emptyRoot = keccak(RLP.encode(new Uint8Array(0)));
    this.decoded = new Lru<string, Node>(decodedNodes);
  }
}

const NO_PATH = new Uint8Array(0);

/**
 * A Merkle-Patricia trie for the head state, drop-in for the part of @ethereumjs/mpt that
 * MerkleStateManager uses. @ethereumjs/mpt re-reads, re-decodes, re-encodes and re-hashes the
 * whole path on every put; here nodes are immutable objects kept in memory, an update copies
 * only its path, and encodings and hashes are computed once, when the root is asked for. New
 * nodes are written to the same database in the same format, so @ethereumjs/mpt reads them
 * back (historical state, proofs).
 */
export class CowTrie {
  readonly EMPTY_TRIE_ROOT: Uint8Array;
  private rootRef: Ref | null;
  private saved: (Ref | null)[] = [];

  constructor(
    private readonly ctx: TrieContext,
    root?: Uint8Array,
  ) {
    this.EMPTY_TRIE_ROOT = ctx.emptyRoot;
    this.rootRef = root && !equalsBytes(root, ctx.emptyRoot) ? { t: 3, hash: root } : null;
  }

  /** Sets the root (by hash) or returns the current one, hashing what changed since. */
  root(value?: Uint8Array | null): Uint8Array {
    if (value !== undefined) {
      this.rootRef = value === null || equalsBytes(value, this.ctx.emptyRoot) ? null : { t: 3, hash: value };
      return value ?? this.ctx.emptyRoot;
    }
    const r = this.rootRef;
    if (r === null) return this.ctx.emptyRoot;
    if (r.t === 3) return r.hash;
    const m = this.memo(r);
    if (!m.hash) {
      // The root is stored under its hash even when it is shorter than 32 bytes (as @ethereumjs/mpt).
      m.hash = this.ctx.keccak(m.enc);
      void this.ctx.db.put(bytesToUnprefixedHex(m.hash), m.enc);
    }
    return m.hash;
  }

  async get(key: Uint8Array): Promise<Uint8Array | null> {
    const nib = toNibbles(this.ctx.hashKeys ? this.ctx.keccak(key) : key);
    let ref = this.rootRef;
    let off = 0;
    while (ref) {
      const n = await this.resolve(ref);
      if (n.t === 0) return equalPath(n.path, nib, off) ? n.value : null;
      if (n.t === 1) {
        if (commonPrefix(nib, off, n.path) !== n.path.length) return null;
        off += n.path.length;
        ref = n.child;
        continue;
      }
      if (off === nib.length) return n.value;
      ref = n.children[nib[off]];
      off++;
    }
    return null;
  }

  async put(key: Uint8Array, value: Uint8Array | null): Promise<void> {
    if (value === null || value.length === 0) return this.del(key);
    const nib = toNibbles(this.ctx.hashKeys ? this.ctx.keccak(key) : key);
    this.rootRef = await this.insert(this.rootRef, nib, 0, value);
  }

  async del(key: Uint8Array): Promise<void> {
    const nib = toNibbles(this.ctx.hashKeys ? this.ctx.keccak(key) : key);
    this.rootRef = await this.remove(this.rootRef, nib, 0);
  }

  checkpoint(): void {
    this.saved.push(this.rootRef);
  }

  async commit(): Promise<void> {
    if (this.saved.length === 0) throw new Error('trying to commit when not checkpointed');
    this.saved.pop();
  }

  async revert(): Promise<void> {
    if (this.saved.length === 0) throw new Error('trying to revert when not checkpointed');
    this.rootRef = this.saved.pop() ?? null;
  }

  hasCheckpoints(): boolean {
    return this.saved.length > 0;
  }

  flushCheckpoints(): void {
    this.saved = [];
  }

  shallowCopy(includeCheckpoints = true): CowTrie {
    const copy = new CowTrie(this.ctx);
    copy.rootRef = this.rootRef;
    if (includeCheckpoints) copy.saved = [...this.saved];
    return copy;
  }

  async checkRoot(root: Uint8Array): Promise<boolean> {
    if (equalsBytes(root, this.ctx.emptyRoot)) return true;
    try {
      await this.resolve({ t: 3, hash: root });
      return true;
    } catch {
      return false;
    }
  }

  /** Code is stored beside the nodes, keyed as @ethereumjs/mpt's CheckpointDB keys it. */
  database(): {
    get(k: Uint8Array): Promise<Uint8Array | undefined>;
    put(k: Uint8Array, v: Uint8Array): Promise<void>;
  } {
    const db = this.ctx.db;
    return {
      get: async (k) => {
        const v = await db.get(bytesToUnprefixedHex(k));
        return typeof v === 'string' ? undefined : v;
      },
      put: (k, v) => db.put(bytesToUnprefixedHex(k), v),
    };
  }

  /** The same trie as @ethereumjs/mpt, for what only it does (proofs, ordered walks). */
  toMPT(): MerklePatriciaTrie {
    const root = this.root();
    return new MerklePatriciaTrie({
      ...this.ctx.mptOptions,
      db: this.ctx.db,
      root,
      valueEncoding: ValueEncoding.Bytes,
    });
  }

  getValueMap(startKey?: bigint, limit?: number): ReturnType<MerklePatriciaTrie['getValueMap']> {
    return this.toMPT().getValueMap(startKey, limit);
  }

  private async resolve(ref: Ref): Promise<Node> {
    if (ref.t !== 3) return ref;
    const hex = bytesToUnprefixedHex(ref.hash);
    const hit = this.ctx.decoded.get(hex);
    if (hit) return hit;
    const enc = await this.ctx.db.get(hex);
    if (enc === undefined || typeof enc === 'string') throw new Error('Missing node in DB');
    const node = decodeNode(enc);
    node.memo = { enc, ref: ref.hash, hash: ref.hash };
    this.ctx.decoded.set(hex, node);
    return node;
  }

  /** Encoding, embed form and (for ≥ 32-byte nodes) hash of a node; new stored nodes go to the db. */
  private memo(n: Node): Memo {
    if (n.memo) return n.memo;
    const raw = rawOf(n, (c) => (c.t === 3 ? c.hash : this.memo(c).ref));
    const enc = encodeNode(raw);
    let m: Memo;
    if (enc.length >= 32) {
      const hash = this.ctx.keccak(enc);
      void this.ctx.db.put(bytesToUnprefixedHex(hash), enc);
      m = { enc, ref: hash, hash };
    } else m = { enc, ref: raw as NestedRaw };
    n.memo = m;
    return m;
  }

  private async insert(ref: Ref | null, nib: Uint8Array, off: number, value: Uint8Array): Promise<Node> {
    if (!ref) return leaf(nib.slice(off), value);
    const n = await this.resolve(ref);
    if (n.t === 2) {
      if (off === nib.length) return branch(n.children, value);
      const children = n.children.slice();
      const i = nib[off];
      children[i] = await this.insert(children[i], nib, off + 1, value);
      return branch(children, n.value);
    }
    const cp = commonPrefix(nib, off, n.path);
    if (n.t === 1 && cp === n.path.length) return ext(n.path, await this.insert(n.child, nib, off + cp, value));
    if (n.t === 0 && cp === n.path.length && off + cp === nib.length) return leaf(n.path, value);
    // Split at the first differing nibble: a branch holds the old node's rest and the new leaf.
    const children: (Ref | null)[] = new Array(16).fill(null);
    let bvalue: Uint8Array | null = null;
    if (n.t === 0) {
      if (cp === n.path.length) bvalue = n.value;
      else children[n.path[cp]] = leaf(n.path.slice(cp + 1), n.value);
    } else {
      const rest = n.path.length - cp - 1;
      children[n.path[cp]] = rest > 0 ? ext(n.path.slice(cp + 1), n.child) : n.child;
    }
    if (off + cp === nib.length) bvalue = value;
    else children[nib[off + cp]] = leaf(nib.slice(off + cp + 1), value);
    const br = branch(children, bvalue);
    return cp > 0 ? ext(nib.slice(off, off + cp), br) : br;
  }

  /** Removes a key; returns the same ref when the key was absent (nothing to rehash). */
  private async remove(ref: Ref | null, nib: Uint8Array, off: number): Promise<Ref | null> {
    if (!ref) return null;
    const n = await this.resolve(ref);
    if (n.t === 0) return equalPath(n.path, nib, off) ? null : ref;
    if (n.t === 1) {
      if (commonPrefix(nib, off, n.path) !== n.path.length) return ref;
      const child = await this.remove(n.child, nib, off + n.path.length);
      if (child === n.child) return ref;
      return child ? this.joinPath(n.path, child) : null;
    }
    if (off === nib.length) {
      if (n.value === null) return ref;
      return this.normalize(n.children, null);
    }
    const i = nib[off];
    const c = n.children[i];
    if (!c) return ref;
    const nc = await this.remove(c, nib, off + 1);
    if (nc === c) return ref;
    const children = n.children.slice();
    children[i] = nc;
    return this.normalize(children, n.value);
  }

  /** An extension path in front of `child`, merged with it when it is a leaf or extension. */
  private async joinPath(path: Uint8Array, childRef: Ref): Promise<Node> {
    const c = await this.resolve(childRef);
    if (c.t === 0) return leaf(concatNibbles(path, c.path), c.value);
    if (c.t === 1) return ext(concatNibbles(path, c.path), c.child);
    return ext(path, c);
  }

  /** A branch left with one child and no value becomes that child behind its nibble. */
  private async normalize(children: readonly (Ref | null)[], value: Uint8Array | null): Promise<Node | null> {
    let count = 0;
    let only = -1;
    for (let i = 0; i < 16; i++) {
      if (children[i]) {
        count++;
        only = i;
      }
    }
    if (count === 0) return value === null ? null : leaf(NO_PATH, value);
    if (count === 1 && value === null) return this.joinPath(Uint8Array.of(only), children[only] as Ref);
    return branch(children, value);
  }
}

function equalPath(path: Uint8Array, nib: Uint8Array, off: number): boolean {
  if (path.length !== nib.length - off) return false;
  for (let i = 0; i < path.length; i++) if (path[i] !== nib[off + i]) return false;
  return true;
}
