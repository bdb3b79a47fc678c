import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { MapDB, ValueEncoding, bytesToHex } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CowTrie, TrieContext } from './CowTrie.js';

type Op = { kind: 'put'; key: number; value: Uint8Array } | { kind: 'del'; key: number } | { kind: 'root' };

const keyOf = (k: number) => Uint8Array.of(k >> 8, k & 0xff);

function setup(hashKeys = true) {
  const db = new MapDB<string, string | Uint8Array>();
  const ctx = new TrieContext(db, keccak_256, { useKeyHashing: hashKeys }, hashKeys);
  const cow = new CowTrie(ctx);
  const mpt = new MerklePatriciaTrie({ useKeyHashing: hashKeys });
  return { db, ctx, cow, mpt };
}

// Values from 1 to 40 bytes: short ones make nodes under 32 bytes, which are embedded in their parent.
const value = fc.uint8Array({ minLength: 1, maxLength: 40 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('put' as const), key: fc.integer({ min: 0, max: 400 }), value }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('del' as const), key: fc.integer({ min: 0, max: 400 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'root' as const }) },
);

describe('CowTrie', () => {
  for (const hashKeys of [true, false]) {
    // Unhashed 2-byte keys make short paths, so many nodes are under 32 bytes and embedded.
    it(`computes the same roots as @ethereumjs/mpt for any sequence of puts and deletes (hashed keys: ${hashKeys})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 300 }), async (ops) => {
          const { cow, mpt } = setup(hashKeys);
          for (const o of ops) {
            if (o.kind === 'put') {
              await cow.put(keyOf(o.key), o.value);
              await mpt.put(keyOf(o.key), o.value);
            } else if (o.kind === 'del') {
              await cow.del(keyOf(o.key));
              await mpt.del(keyOf(o.key));
            } else expect(bytesToHex(cow.root())).toBe(bytesToHex(mpt.root()));
          }
          expect(bytesToHex(cow.root())).toBe(bytesToHex(mpt.root()));
          for (let k = 0; k <= 400; k += 7) {
            const a = await cow.get(keyOf(k));
            const b = await mpt.get(keyOf(k));
            expect(a === null ? null : bytesToHex(a)).toBe(b === null ? null : bytesToHex(b));
          }
        }),
        { numRuns: 60 },
      );
    });
  }

  it('gives 20-byte keys (addresses, whose paths the context remembers) the roots @ethereumjs/mpt gives, in every trie of the context', async () => {
    const address = (k: number) => {
      const a = new Uint8Array(20).fill(0xab);
      a[18] = k >> 8;
      a[19] = k & 0xff;
      return a;
    };
    const { ctx } = setup(true);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 200 }), async (ops) => {
        // A new trie per run on the one context: paths remembered by earlier runs are reused.
        const cow = new CowTrie(ctx);
        const mpt = new MerklePatriciaTrie({ useKeyHashing: true });
        for (const o of ops) {
          if (o.kind === 'put') {
            await cow.put(address(o.key), o.value);
            await mpt.put(address(o.key), o.value);
          } else if (o.kind === 'del') {
            await cow.del(address(o.key));
            await mpt.del(address(o.key));
          } else expect(bytesToHex(cow.root())).toBe(bytesToHex(mpt.root()));
        }
        expect(bytesToHex(cow.root())).toBe(bytesToHex(mpt.root()));
        for (let k = 0; k <= 400; k += 7) {
          const a = await cow.get(address(k));
          const b = await mpt.get(address(k));
          expect(a === null ? null : bytesToHex(a)).toBe(b === null ? null : bytesToHex(b));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('writes nodes @ethereumjs/mpt can read back at any root it reported', async () => {
    const { db, ctx, cow } = setup();
    const roots: { root: Uint8Array; entries: Map<number, Uint8Array> }[] = [];
    const live = new Map<number, Uint8Array>();
    for (let i = 0; i < 600; i++) {
      const k = (i * 37) % 500;
      if (i % 5 === 4) {
        await cow.del(keyOf(k));
        live.delete(k);
      } else {
        const v = Uint8Array.of(i & 0xff, (i >> 8) & 0xff, 7);
        await cow.put(keyOf(k), v);
        live.set(k, v);
      }
      if (i % 50 === 49) roots.push({ root: cow.root(), entries: new Map(live) });
    }
    for (const { root, entries } of roots) {
      const reader = new MerklePatriciaTrie({ db, root, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes });
      for (const [k, v] of entries) expect(bytesToHex((await reader.get(keyOf(k))) as Uint8Array)).toBe(bytesToHex(v));
      // and a fresh CowTrie on the same context resumes from the root alone
      const resumed = new CowTrie(ctx, root);
      for (const [k, v] of entries) expect(bytesToHex((await resumed.get(keyOf(k))) as Uint8Array)).toBe(bytesToHex(v));
    }
  });

  for (const now of [false, true]) {
    it(`updates a trie resumed from a root alone, reading nodes from an async store, as @ethereumjs/mpt does (${now ? 'putNow/delNow' : 'put/del'})`, async () => {
      // A decoded-node cache of one entry: every update that starts over after a read must find
      // the nodes it read again (the synchronous update path, see CowTrie.insert).
      const put = (t: CowTrie, k: Uint8Array, v: Uint8Array) => (now ? t.putNow(k, v) : t.put(k, v));
      const del = (t: CowTrie, k: Uint8Array) => (now ? t.delNow(k) : t.del(k));
      await fc.assert(
        fc.asyncProperty(
          fc.array(op, { minLength: 1, maxLength: 120 }),
          fc.array(op, { maxLength: 60 }),
          async (first, then) => {
            const db = new MapDB<string, string | Uint8Array>();
            const ctx = new TrieContext(db, keccak_256, { useKeyHashing: true }, true, 1);
            const cow = new CowTrie(ctx);
            const mpt = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes });
            for (const o of first) if (o.kind === 'put') await cow.put(keyOf(o.key), o.value);
            const resumed = new CowTrie(ctx, cow.root());
            mpt.root(cow.root());
            for (const o of then) {
              if (o.kind === 'put') {
                await put(resumed, keyOf(o.key), o.value);
                await mpt.put(keyOf(o.key), o.value);
              } else if (o.kind === 'del') {
                await del(resumed, keyOf(o.key));
                await mpt.del(keyOf(o.key));
              }
              expect(bytesToHex(resumed.root())).toBe(bytesToHex(mpt.root()));
            }
            for (let k = 0; k <= 400; k += 13) {
              const a = await resumed.get(keyOf(k));
              const b = await mpt.get(keyOf(k));
              expect(a === null ? null : bytesToHex(a)).toBe(b === null ? null : bytesToHex(b));
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  }

  it('getNow answers as get where the path is in memory, and undefined (never a wrong answer) where a node must be read', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 120 }), async (ops) => {
        const db = new MapDB<string, string | Uint8Array>();
        const ctx = new TrieContext(db, keccak_256, { useKeyHashing: true }, true, 1);
        const cow = new CowTrie(ctx);
        for (const o of ops) {
          if (o.kind === 'put') await cow.put(keyOf(o.key), o.value);
          else if (o.kind === 'del') await cow.del(keyOf(o.key));
          else cow.root();
        }
        // Resumed from its root alone: nodes come from the async store (a one-entry decoded cache).
        const resumed = new CowTrie(ctx, cow.root());
        for (let k = 0; k <= 400; k += 7) {
          const want = await cow.get(keyOf(k));
          const hex = (v: Uint8Array | null) => (v === null ? null : bytesToHex(v));
          expect(hex(cow.getNow(keyOf(k)) as Uint8Array | null)).toBe(hex(want));
          const now = resumed.getNow(keyOf(k));
          if (now !== undefined) expect(hex(now)).toBe(hex(want));
          expect(hex(await resumed.get(keyOf(k)))).toBe(hex(want));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('tells apart stored nodes whose hashes begin alike (the decoded-node cache key)', async () => {
    const { db, ctx } = setup();
    const encOf = async (value: number) => {
      const t = new CowTrie(ctx);
      await t.put(keyOf(1), Uint8Array.of(value));
      return (await db.get(bytesToHex(t.root()).slice(2))) as Uint8Array;
    };
    // Nodes stored under made-up keys that share their first 16 bytes (as a forked chain stores
    // its root node under the upstream's root).
    const k1 = new Uint8Array(32).fill(0xaa);
    const k2 = Uint8Array.from(k1);
    k2[31] = 1;
    await db.put(bytesToHex(k1).slice(2), await encOf(1));
    await db.put(bytesToHex(k2).slice(2), await encOf(2));
    for (const [root, v] of [
      [k1, 1],
      [k2, 2],
      [k1, 1],
    ] as const)
      expect(await new CowTrie(ctx, root).get(keyOf(1))).toEqual(Uint8Array.of(v));
  });

  it('says whether a root is in the database', async () => {
    const { cow } = setup();
    await cow.put(keyOf(1), new Uint8Array(40).fill(1));
    expect(await cow.checkRoot(cow.root())).toBe(true);
    expect(await cow.checkRoot(new Uint8Array(32).fill(3))).toBe(false);
    await expect(
      new CowTrie((cow as unknown as { ctx: TrieContext }).ctx, new Uint8Array(32).fill(3)).get(keyOf(1)),
    ).rejects.toThrow(/Missing node/);
  });

  it('reverts to a checkpoint and commits it away', async () => {
    const { cow } = setup();
    await cow.put(keyOf(1), Uint8Array.of(1));
    const before = bytesToHex(cow.root());
    cow.checkpoint();
    await cow.put(keyOf(2), Uint8Array.of(2));
    await cow.del(keyOf(1));
    await cow.revert();
    expect(bytesToHex(cow.root())).toBe(before);
    cow.checkpoint();
    await cow.put(keyOf(3), Uint8Array.of(3));
    await cow.commit();
    expect(cow.hasCheckpoints()).toBe(false);
    expect(await cow.get(keyOf(3))).toEqual(Uint8Array.of(3));
  });

  it('deleting an absent key leaves the root untouched', async () => {
    const { cow } = setup();
    await cow.put(keyOf(1), Uint8Array.of(1));
    const r = bytesToHex(cow.root());
    await cow.del(keyOf(99));
    expect(bytesToHex(cow.root())).toBe(r);
  });
});
