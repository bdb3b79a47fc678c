import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { type DB, ValueEncoding, bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util';
import { byteKey } from '../chain/stateCacheKeys.js';
import { keepPrimed } from '../index/keepPrimed.js';
import { GenerationCache } from './GenerationCache.js';
import { encodeNodeInto, listLength, payloadLength } from './encodeNode.js';
import { commonPrefix, concatNibbles, toNibbles } from './nibbles.js';
import { type HashRef, type Node, type Ref, branch, decodeNode, ext, isEncoded, leaf } from './nodes.js';

type Value = string | Uint8Array;

/**
 * Trie nodes by their 32-byte hash, as CowTrie reads and writes them: no hex key strings on the
 * path of a block's root. StateNodeDb is one; any other `DB` is adapted (see TrieContext).
 */
export interface NodeStore {
  /** The node's RLP, or undefined; may answer synchronously. */
  getNode(hash: Uint8Array): Uint8Array | undefined | Promise<Uint8Array | undefined>;
  /** Stores a copy of a node's RLP (the trie reuses `enc`'s memory for the next node). */
  putNode(hash: Uint8Array, enc: Uint8Array): void;
}

function isNodeStore(db: object): db is NodeStore {
  return (
    typeof (db as Partial<NodeStore>).getNode === 'function' && typeof (db as Partial<NodeStore>).putNode === 'function'
  );
}

/** A plain `DB` keyed by unprefixed hex, as @ethereumjs/mpt keys it. */
function hexNodeStore(db: DB<string, Value>): NodeStore {
  return {
    getNode: async (hash) => {
      const v = await db.get(bytesToUnprefixedHex(hash));
      return typeof v === 'string' ? undefined : v;
    },
    putNode: (hash, enc) => void db.put(bytesToUnprefixedHex(hash), enc.slice()),
  };
}

/** The first size of a TrieContext's scratch (see `scratch`). */
const SCRATCH_BYTES = 64 * 1024;

/** Longest node encoding whose scratch view is kept (a branch with 16 hashes and a value is ~550 bytes). */
const SCRATCH_VIEW_LENGTHS = 1024;

/** What tries of one chain share: the node database, decoded nodes, the hash function. */
export class TrieContext {
  /**
   * Decoded nodes by hash (keyed by cacheKeyOf, checked against the full hash on a hit): nodes
   * are immutable, so any trie of the chain may share them.
   */
  readonly decoded: GenerationCache<number, Node>;
  readonly emptyRoot: Uint8Array;
  /** `db` seen by hash. */
  readonly nodes: NodeStore;
  /**
   * Where nodes are encoded before hashing and storing (the store copies them). 64 KiB: room for
   * a transactions-trie leaf holding a contract creation's code (up to 48 KiB of init code), so
   * that growing it stays rare; the first growth of a fresh node (its first deployment) threw away
   * CowTrie.encode's optimised code, which had never run that branch.
   */
  scratch = new Uint8Array(SCRATCH_BYTES);
  /**
   * `scratch.subarray(0, length)` by length (up to SCRATCH_VIEW_LENGTHS), made once per scratch:
   * a node's encoding is handed to keccak and the store, which copy it, ~25 times per automined
   * transfer, and a fresh view each time was ~100 bytes of garbage.
   */
  scratchViews: (Uint8Array | undefined)[] = [];

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
    this.decoded = new GenerationCache<number, Node>(decodedNodes);
    this.nodes = isNodeStore(db) ? db : hexNodeStore(db);
  }

  /** Paths (nibbles of the hashed key) of addresses, by byteKey of the address (bounded). */
  private readonly addressPaths = new Map<string, Uint8Array>();

  /**
   * The path of `key` in a trie of this chain: the nibbles of its hash (of the key itself when
   * keys are not hashed). An account's is remembered: a block writes the same few accounts
   * block after block (the sender, the coinbase, the EIP-4788 and EIP-2935 contracts), and a hash
   * and its nibbles cost ~1 µs where the lookup costs a tenth. Paths are only read and sliced,
   * never changed, so one array serves every put, get and delete.
   */
  keyPath(key: Uint8Array): Uint8Array {
    if (!this.hashKeys) return toNibbles(key);
    if (key.length !== 20) return toNibbles(this.keccak(key));
    const k = byteKey(key);
    let path = this.addressPaths.get(k);
    if (path === undefined) {
      path = toNibbles(this.keccak(key));
      if (this.addressPaths.size >= MAX_ADDRESS_PATHS) this.addressPaths.clear();
      this.addressPaths.set(k, path);
    }
    return path;
  }
}

/** Address paths a TrieContext keeps: a dev chain's active accounts, many times over. */
const MAX_ADDRESS_PATHS = 4096;

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
  private saved: (Ref | null)[] = refStack();
  /** A read an update is waiting for (see `node`). */
  private reading: { ref: HashRef; got: Promise<Uint8Array | undefined> } | undefined;
  /** Nodes an update had read for it, found again when it is retried whatever the decoded cache kept. */
  private readFor: Map<HashRef, Node> | undefined;

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
    this.encode(r);
    if (r.hash === undefined) {
      // The root is stored under its hash even when it is shorter than 32 bytes (as @ethereumjs/mpt).
      const enc = r.enc as Uint8Array;
      r.hash = this.ctx.keccak(enc);
      this.ctx.nodes.putNode(r.hash, enc);
    }
    return r.hash;
  }

  /** get without a promise when every node on the key's path is in memory; undefined when one has to be read (then await get). */
  getNow(key: Uint8Array): Uint8Array | null | undefined {
    const nib = this.ctx.keyPath(key);
    let ref = this.rootRef;
    let off = 0;
    while (ref) {
      const n = ref.t !== 3 ? ref : this.loadedNode(ref);
      if (n === undefined) return undefined;
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

  async get(key: Uint8Array): Promise<Uint8Array | null> {
    const nib = this.ctx.keyPath(key);
    let ref = this.rootRef;
    let off = 0;
    while (ref) {
      // Nodes in memory (and, for a chain in memory, in the node table) are had without waiting.
      const n = ref.t !== 3 ? ref : (this.loadedNode(ref) ?? (await this.load(ref)));
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
    const nib = this.ctx.keyPath(key);
    for (;;) {
      try {
        this.rootRef = this.insert(this.rootRef, nib, 0, value);
        this.readFor = undefined;
        return;
      } catch (e) {
        await this.loadWanted(e);
      }
    }
  }

  async del(key: Uint8Array): Promise<void> {
    const nib = this.ctx.keyPath(key);
    for (;;) {
      try {
        this.rootRef = this.remove(this.rootRef, nib, 0);
        this.readFor = undefined;
        return;
      } catch (e) {
        await this.loadWanted(e);
      }
    }
  }

  /**
   * `put` without a promise when every node on the key's path is in memory (undefined: done),
   * else the promise of finishing it once the missing node is read. A head-state flush writes a
   * handful of accounts and slots per block whose paths it has just read: each `await put` cost
   * a promise and its microtask turns for nothing to wait on.
   */
  putNow(key: Uint8Array, value: Uint8Array | null): Promise<void> | undefined {
    if (value === null || value.length === 0) return this.delNow(key);
    const nib = this.ctx.keyPath(key);
    try {
      this.rootRef = this.insert(this.rootRef, nib, 0, value);
      this.readFor = undefined;
      return undefined;
    } catch (e) {
      return this.retry(e, () => {
        this.rootRef = this.insert(this.rootRef, nib, 0, value);
      });
    }
  }

  /** `del` as putNow puts: undefined when done at once. */
  delNow(key: Uint8Array): Promise<void> | undefined {
    const nib = this.ctx.keyPath(key);
    try {
      this.rootRef = this.remove(this.rootRef, nib, 0);
      this.readFor = undefined;
      return undefined;
    } catch (e) {
      return this.retry(e, () => {
        this.rootRef = this.remove(this.rootRef, nib, 0);
      });
    }
  }

  /** What put and del do after an update stopped for a node to read: read it, try again, until done. */
  private async retry(stopped: unknown, update: () => void): Promise<void> {
    let e = stopped;
    for (;;) {
      await this.loadWanted(e);
      try {
        update();
        this.readFor = undefined;
        return;
      } catch (again) {
        e = again;
      }
    }
  }

  checkpoint(): void {
    this.saved.push(this.rootRef);
  }

  async commit(): Promise<void> {
    this.commitNow();
  }

  /** commit without a promise (the state manager's commit, several per transaction). */
  commitNow(): void {
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
    this.saved = refStack();
  }

  shallowCopy(includeCheckpoints = true): CowTrie {
    const copy = new CowTrie(this.ctx);
    copy.rootRef = this.rootRef;
    if (includeCheckpoints) for (const ref of this.saved) copy.saved.push(ref);
    return copy;
  }

  async checkRoot(root: Uint8Array): Promise<boolean> {
    if (equalsBytes(root, this.ctx.emptyRoot)) return true;
    try {
      const ref: HashRef = { t: 3, hash: root };
      if (!this.loadedNode(ref)) await this.load(ref);
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

  /**
   * The node behind `ref` if it can be had without waiting (in memory, decoded before, or in a
   * store that answers synchronously); undefined if it has to be read.
   */
  private loadedNode(ref: HashRef): Node | undefined {
    const key = cacheKeyOf(ref.hash);
    const hit = this.ctx.decoded.get(key);
    if (hit && equalsBytes(hit.hash as Uint8Array, ref.hash)) return hit;
    const got = this.ctx.nodes.getNode(ref.hash);
    if (got instanceof Promise) {
      this.reading = { ref, got };
      return undefined;
    }
    return this.decodeStored(ref, key, got);
  }

  /** The node behind `ref`, read from the store if need be. */
  private async load(ref: HashRef): Promise<Node> {
    const pending = this.reading;
    this.reading = undefined;
    const got = pending?.ref === ref ? pending.got : this.ctx.nodes.getNode(ref.hash);
    return this.decodeStored(ref, cacheKeyOf(ref.hash), got instanceof Promise ? await got : got);
  }

  private decodeStored(ref: HashRef, key: number, enc: Uint8Array | undefined): Node {
    if (enc === undefined) throw new Error('Missing node in DB');
    const node = decodeNode(enc);
    // Under its key, which is its hash (or, for a forked chain's genesis, the upstream root it stands for).
    node.enc = enc.length < 32 ? enc : undefined;
    node.hash = ref.hash;
    this.ctx.decoded.set(key, node);
    return node;
  }

  /**
   * The node behind `ref` for the synchronous update paths; when it has to be read, throws
   * NEED_READ and the update is retried once `loadWanted` has read it.
   */
  private node(ref: Ref): Node {
    if (ref.t !== 3) return ref;
    const n = this.readFor?.get(ref) ?? this.loadedNode(ref);
    if (n === undefined) throw NEED_READ;
    return n;
  }

  /** Reads the node an update stopped at (rethrows anything else): the update then starts over. */
  private async loadWanted(e: unknown): Promise<void> {
    if (e !== NEED_READ || !this.reading) throw e;
    const ref = this.reading.ref;
    const node = await this.load(ref);
    this.readFor ??= new Map();
    this.readFor.set(ref, node);
  }

  /** Encodes a node, children first: its RLP if under 32 bytes, else its hash (the RLP goes to the db). */
  private encode(n: Node): void {
    if (isEncoded(n)) return;
    if (n.t === 2) {
      const children = n.children;
      for (let i = 0; i < 16; i++) {
        const c = children[i];
        if (c !== null && c.t !== 3 && !isEncoded(c)) this.encode(c);
      }
    } else if (n.t === 1) {
      const c = n.child;
      if (c.t !== 3 && !isEncoded(c)) this.encode(c);
    }
    const ctx = this.ctx;
    const payload = payloadLength(n);
    const len = listLength(payload);
    if (ctx.scratch.length < len) {
      ctx.scratch = new Uint8Array(len * 2);
      ctx.scratchViews = [];
    }
    encodeNodeInto(n, ctx.scratch, payload);
    if (len < 32) n.enc = ctx.scratch.slice(0, len);
    else {
      let enc = len <= SCRATCH_VIEW_LENGTHS ? ctx.scratchViews[len] : undefined;
      if (enc === undefined) {
        enc = ctx.scratch.subarray(0, len);
        if (len <= SCRATCH_VIEW_LENGTHS) ctx.scratchViews[len] = enc;
      }
      const hash = ctx.keccak(enc);
      ctx.nodes.putNode(hash, enc);
      n.hash = hash;
    }
  }

  /*
   * Updates are synchronous: every node on the path is in memory or in a store that answers at
   * once (the in-memory node table, the caches), so an update costs no promise per level. A node
   * that has to be read throws NEED_READ; put/del read it and run the update again from the
   * root (nodes are immutable, so the first attempt left nothing behind).
   */

  private insert(ref: Ref | null, nib: Uint8Array, off: number, value: Uint8Array): Node {
    if (!ref) return leaf(nib.slice(off), value);
    const n = this.node(ref);
    if (n.t === 2) {
      if (off === nib.length) return branch(n.children, value);
      const children = n.children.slice();
      const i = nib[off];
      children[i] = this.insert(children[i], nib, off + 1, value);
      return branch(children, n.value);
    }
    const cp = commonPrefix(nib, off, n.path);
    if (n.t === 1 && cp === n.path.length) return ext(n.path, this.insert(n.child, nib, off + cp, value));
    if (n.t === 0 && cp === n.path.length && off + cp === nib.length) return leaf(n.path, value);
    // Split at the first differing nibble: a branch holds the old node's rest and the new leaf.
    const children: (Ref | null)[] = [
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ];
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
  private remove(ref: Ref | null, nib: Uint8Array, off: number): Ref | null {
    if (!ref) return null;
    const n = this.node(ref);
    if (n.t === 0) return equalPath(n.path, nib, off) ? null : ref;
    if (n.t === 1) {
      if (commonPrefix(nib, off, n.path) !== n.path.length) return ref;
      const child = this.remove(n.child, nib, off + n.path.length);
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
    const nc = this.remove(c, nib, off + 1);
    if (nc === c) return ref;
    const children = n.children.slice();
    children[i] = nc;
    return this.normalize(children, n.value);
  }

  /** An extension path in front of `child`, merged with it when it is a leaf or extension. */
  private joinPath(path: Uint8Array, childRef: Ref): Node {
    const c = this.node(childRef);
    if (c.t === 0) return leaf(concatNibbles(path, c.path), c.value);
    if (c.t === 1) return ext(concatNibbles(path, c.path), c.child);
    return ext(path, c);
  }

  /** A branch left with one child and no value becomes that child behind its nibble. */
  private normalize(children: readonly (Ref | null)[], value: Uint8Array | null): Node | null {
    let count = 0;
    let only = -1;
    for (let i = 0; i < 16; i++) {
      if (children[i]) {
        count++;
        only = i;
      }
    }
    if (count === 0) return value === null ? null : leaf(NO_PATH, value);
    if (count === 1 && value === null) return this.joinPath(NIBBLE_PATHS[only], children[only] as Ref);
    return branch(children, value);
  }
}

/**
 * The decoded-node cache's key for a hash: its first 48 bits as a number, cheaper to make and
 * look up than a hex string. Two hashes may share one; a hit is checked against the full hash.
 */
function cacheKeyOf(hash: Uint8Array): number {
  return (hash[0] | (hash[1] << 8) | (hash[2] << 16)) * 0x1000000 + (hash[3] | (hash[4] << 8) | (hash[5] << 16));
}

/**
 * An empty stack of saved roots whose array already holds objects (V8's PACKED_ELEMENTS): a `[]`
 * starts as small integers and changes its hidden class at its first push. The journal's
 * checkpoint (the state manager's, then this trie's push, all inlined) was optimised on the head
 * trie's array alone, and a trie made later (a scratch state for eth_call or eth_estimateGas)
 * threw that code away at its first push ("wrong map").
 */
function refStack(): (Ref | null)[] {
  const stack: (Ref | null)[] = [null];
  stack.pop();
  return stack;
}

/** Thrown by a synchronous update that needs a node read first (see CowTrie.insert). */
const NEED_READ = Symbol('trie node must be read');

/** The one-nibble paths, shared (paths are never modified). */
const NIBBLE_PATHS = Array.from({ length: 16 }, (_, i) => Uint8Array.of(i));

function equalPath(path: Uint8Array, nib: Uint8Array, off: number): boolean {
  if (path.length !== nib.length - off) return false;
  for (let i = 0; i < path.length; i++) if (path[i] !== nib[off + i]) return false;
  return true;
}

// Extension nodes had no feedback on a fresh node: the paths value transfers read and write
// (accounts by hashed address, a few system-contract slots) end in leaves under branches.
// getNow's extension case (`n.path`, `n.child`) first ran at the first contract's storage trie,
// whose slots share a prefix, and threw getNow's optimised code away ('Insufficient type
// feedback', W4 after W1,W2); insert's split of an extension (`n.path.slice`) did the same to
// insert when a new key first left an extension's path (W2 or W4), and insert's descent through
// an extension (`this.insert` under `n.t === 1`) at a new key under one (W4), and remove's
// (`this.remove` under `n.t === 1`) at a slot cleared under one (W4). Throwaway tries of unhashed
// keys behind an extension node are read and updated here (a key found, a key that leaves the
// extension's path, splits leaving an extension and leaving none, a key passing through it,
// removals keeping the branch, leaving a leaf, and of absent keys); their nodes have the shapes
// of every trie's (the same node factories), and the last trie is kept for the process's life
// (V8 holds map transitions weakly).
{
  const noStore: NodeStore = { getNode: () => undefined, putNode: () => undefined };
  const ctx = new TrieContext(noStore as unknown as DB<string, Value>, () => new Uint8Array(32), {}, false, 0);
  const found = Uint8Array.of(0x12, 0x34);
  const missed = Uint8Array.of(0x56, 0x78);
  const value = Uint8Array.of(1);
  let primer = new CowTrie(ctx);
  for (let i = 0; i < 16; i++) {
    for (const third of [Uint8Array.of(0x15, 0x34), Uint8Array.of(0x12, 0x44), Uint8Array.of(0x12, 0x36)]) {
      primer = new CowTrie(ctx);
      primer.putNow(found, value); // a leaf
      primer.putNow(Uint8Array.of(0x12, 0x35), value); // an extension [1, 2, 3] over a branch
      primer.getNow(found);
      primer.getNow(missed);
      primer.putNow(third, value); // the extension split after 1 nibble, after 2, then passed through
    }
    // Removal under the extension: the branch keeps two children, then one (a leaf is left); absent keys.
    primer = new CowTrie(ctx);
    primer.putNow(found, value);
    primer.putNow(Uint8Array.of(0x12, 0x35), value);
    primer.putNow(Uint8Array.of(0x12, 0x36), value);
    primer.delNow(Uint8Array.of(0x12, 0x36));
    primer.delNow(Uint8Array.of(0x12, 0x37));
    primer.delNow(Uint8Array.of(0x12, 0x99));
    primer.delNow(Uint8Array.of(0x12, 0x35));
  }
  keepPrimed(primer);
}
