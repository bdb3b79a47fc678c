import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { ChainStateManager } from './ChainStateManager.js';
import { StateCaches } from './StateCaches.js';

const address = (i: number) => new Address(setLengthLeft(bigIntToBytes(BigInt(0x1000 + i)), 20));
const slot = (i: number) => setLengthLeft(bigIntToBytes(BigInt(i)), 32);
const cachesOf = (sm: ChainStateManager) => (sm as unknown as { _caches?: StateCaches })._caches;
const balanceOf = async (sm: MerkleStateManager, a: Address) => (await sm.getAccount(a))?.balance;

/** A small deterministic PRNG (mulberry32): the same operations on every run. */
function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) as number;
  };
}

/** The state as a reader sees it: per address index, nonce, balance, code, slot index → byte. */
interface ModelAccount {
  nonce: bigint;
  balance: bigint;
  code: Uint8Array;
  storage: Map<number, number>;
}
type Model = Map<number, ModelAccount>;
const emptyModelAccount = (): ModelAccount => ({ nonce: 0n, balance: 0n, code: new Uint8Array(0), storage: new Map() });
const copyModel = (m: Model): Model => new Map([...m].map(([i, a]) => [i, { ...a, storage: new Map(a.storage) }]));

/** The model's state root, as @ethereumjs's MerkleStateManager (no caches) computes it. */
async function modelRoot(model: Model): Promise<string> {
  const sm = new MerkleStateManager();
  for (const [i, m] of model) {
    await sm.putAccount(address(i), new Account(m.nonce, m.balance));
    if (m.code.length > 0) await sm.putCode(address(i), m.code);
    for (const [s, v] of m.storage) await sm.putStorage(address(i), slot(s), Uint8Array.of(v));
  }
  return bytesToHex(await sm.getStateRoot());
}

describe('StateCaches under ChainStateManager', () => {
  it('nested checkpoints: a revert puts back the level below, a commit keeps it', async () => {
    const sm = new ChainStateManager({ caches: new StateCaches() });
    await sm.putAccount(address(1), new Account(0n, 1n));
    await sm.checkpoint();
    await sm.putAccount(address(1), new Account(0n, 2n));
    await sm.checkpoint();
    await sm.putAccount(address(1), new Account(0n, 3n));
    await sm.putAccount(address(2), new Account(0n, 30n));
    expect(await balanceOf(sm, address(1))).toBe(3n);
    await sm.revert();
    expect(await balanceOf(sm, address(1))).toBe(2n);
    expect(await sm.getAccount(address(2))).toBeUndefined();
    await sm.checkpoint();
    await sm.putAccount(address(2), new Account(0n, 40n));
    await sm.commit();
    expect(await balanceOf(sm, address(2))).toBe(40n);
    await sm.revert();
    expect(await balanceOf(sm, address(1))).toBe(1n);
    expect(await sm.getAccount(address(2))).toBeUndefined();
  });

  it('a deleted account reads as absent, and created again starts afresh (storage and code too)', async () => {
    const sm = new ChainStateManager({ caches: new StateCaches() });
    const a = address(3);
    await sm.putAccount(a, new Account(5n, 100n));
    await sm.putCode(a, Uint8Array.of(0x60, 0x00));
    await sm.putStorage(a, slot(1), Uint8Array.of(7));
    await sm.flush();
    await sm.deleteAccount(a);
    expect(await sm.getAccount(a)).toBeUndefined();
    await sm.putAccount(a, new Account(0n, 9n));
    await sm.flush();
    expect(await balanceOf(sm, a)).toBe(9n);
    expect((await sm.getAccount(a))?.nonce).toBe(0n);
    expect(await sm.getCode(a)).toEqual(new Uint8Array(0));
    sm.clearCaches();
    expect(await balanceOf(sm, a)).toBe(9n);
    expect(await sm.getCode(a)).toEqual(new Uint8Array(0));
  });

  it('what a flush wrote is read back from the trie after the caches are cleared', async () => {
    const sm = new ChainStateManager({ caches: new StateCaches() });
    const a = address(4);
    await sm.putAccount(a, new Account(1n, 50n));
    await sm.putCode(a, Uint8Array.of(0x60, 0x01, 0x00));
    await sm.putStorage(a, slot(2), Uint8Array.of(0x2a));
    const root = await sm.getStateRoot();
    sm.clearCaches();
    expect(await balanceOf(sm, a)).toBe(50n);
    expect(await sm.getCode(a)).toEqual(Uint8Array.of(0x60, 0x01, 0x00));
    expect(await sm.getStorage(a, slot(2))).toEqual(Uint8Array.of(0x2a));
    // A fresh state manager over the same trie at that root reads the same.
    const again = new ChainStateManager({ trie: (sm as unknown as { _trie: never })._trie, caches: new StateCaches() });
    await again.setStateRoot(root);
    expect(await balanceOf(again, a)).toBe(50n);
    expect(await again.getStorage(a, slot(2))).toEqual(Uint8Array.of(0x2a));
  });

  it('an account got or put is a copy: changing it changes nothing cached', async () => {
    const sm = new ChainStateManager({ caches: new StateCaches() });
    const a = address(5);
    const put = new Account(1n, 10n);
    await sm.putAccount(a, put);
    put.balance = 999n;
    expect(await balanceOf(sm, a)).toBe(10n);
    const got = await sm.getAccount(a);
    if (!got) throw new Error('account missing');
    got.balance = 777n;
    got.nonce = 9n;
    expect(await balanceOf(sm, a)).toBe(10n);
    await sm.flush();
    sm.clearCaches();
    const fromTrie = await sm.getAccount(a);
    if (!fromTrie) throw new Error('account missing');
    fromTrie.balance = 555n;
    expect(await balanceOf(sm, a)).toBe(10n);
  });

  it('keeps an account read inside a reverted checkpoint, unless the trie was written in it', async () => {
    const sm = new ChainStateManager({ caches: new StateCaches() });
    const a = address(6);
    const b = address(7);
    await sm.putAccount(a, new Account(0n, 60n));
    await sm.putAccount(b, new Account(0n, 70n));
    await sm.flush();
    sm.clearCaches();
    await sm.checkpoint();
    expect(await balanceOf(sm, a)).toBe(60n);
    await sm.revert();
    expect(cachesOf(sm)?.account?.size()).toBe(1);
    // A flush inside the checkpoint writes the trie; what is read from it then goes with the revert.
    await sm.checkpoint();
    await sm.putAccount(b, new Account(0n, 71n));
    await sm.flush();
    sm.clearCaches();
    expect(await balanceOf(sm, b)).toBe(71n);
    await sm.revert();
    expect(await balanceOf(sm, b)).toBe(70n);
  });

  it('keeps slots and code read inside a reverted checkpoint only while they are the state below it', async () => {
    const sm = new ChainStateManager({ caches: new StateCaches() });
    const caches = cachesOf(sm);
    const a = address(10);
    const code = Uint8Array.of(0x60, 0x02, 0x00);
    await sm.putAccount(a, new Account(0n, 1n));
    await sm.putCode(a, code);
    await sm.putStorage(a, slot(1), Uint8Array.of(0x21));
    await sm.flush();
    sm.clearCaches();
    // Read as an eth_call reads: kept through its revert.
    await sm.checkpoint();
    expect(await sm.getStorage(a, slot(1))).toEqual(Uint8Array.of(0x21));
    expect(await sm.getCode(a)).toEqual(code);
    await sm.revert();
    expect(caches?.storage?.get(a, slot(1))).toBeDefined();
    expect(caches?.code?.get(a)?.code).toEqual(code);
    // Read after the storage was cleared inside the checkpoint: what was read goes with the revert.
    sm.clearCaches();
    await sm.checkpoint();
    await sm.clearStorage(a);
    expect(await sm.getStorage(a, slot(1))).toEqual(new Uint8Array(0));
    await sm.revert();
    expect(await sm.getStorage(a, slot(1))).toEqual(Uint8Array.of(0x21));
    // Code read after the account was given other code inside the checkpoint: the same.
    sm.clearCaches();
    await sm.checkpoint();
    const other = (await sm.getAccount(a)) as Account;
    other.codeHash = new Uint8Array(32).fill(7);
    await sm.putAccount(a, other);
    expect(await sm.getCode(a)).toEqual(new Uint8Array(0));
    await sm.revert();
    expect(await sm.getCode(a)).toEqual(code);
  });

  it('a reverted clearStorage puts back slots written below the checkpoint and not yet flushed', async () => {
    // @ethereumjs's StorageCache forgets them (its putStorage had also written them through to
    // the storage trie); ChainStateManager's putStorage writes the cache only.
    const sm = new ChainStateManager({ caches: new StateCaches() });
    const a = address(9);
    await sm.putAccount(a, new Account(0n, 1n));
    await sm.putStorage(a, slot(1), Uint8Array.of(0x11));
    await sm.checkpoint();
    await sm.clearStorage(a);
    expect(await sm.getStorage(a, slot(1))).toEqual(new Uint8Array(0));
    await sm.revert();
    expect(await sm.getStorage(a, slot(1))).toEqual(Uint8Array.of(0x11));
    await sm.flush();
    sm.clearCaches();
    expect(await sm.getStorage(a, slot(1))).toEqual(Uint8Array.of(0x11));
  });

  it('takes @ethereumjs Caches as the sizes to use, and a size of 0 as no cache', async () => {
    const sm = new ChainStateManager({ caches: new Caches({ code: { size: 0 } }) });
    const caches = cachesOf(sm);
    expect(caches).toBeInstanceOf(StateCaches);
    expect(caches?.code).toBeUndefined();
    const a = address(8);
    await sm.putAccount(a, new Account(0n, 1n));
    await sm.putCode(a, Uint8Array.of(0x00));
    expect(await sm.getCode(a)).toEqual(Uint8Array.of(0x00));
    expect(sm.shallowCopy()).toBeInstanceOf(MerkleStateManager);
  });

  // The reference: a plain model of the state (copied whole at each checkpoint), whose root is
  // computed by @ethereumjs's own MerkleStateManager, written afresh without caches.
  for (const seed of Array.from({ length: 40 }, (_, i) => i + 1)) {
    it(`agrees with a plain model of the state on random operations (seed ${seed})`, async () => {
      const rand = prng(seed);
      const sm = new ChainStateManager({ caches: new StateCaches() });
      let model: Model = new Map();
      const saved: Model[] = [];
      for (let step = 0; step < 400; step++) {
        const i = rand(4);
        const a = address(i);
        const op = rand(16);
        const where = `seed ${seed} step ${step} op ${op}`;
        if (op === 0) {
          await sm.checkpoint();
          saved.push(copyModel(model));
        } else if (op === 1 && saved.length > 0) {
          await sm.commit();
          saved.pop();
        } else if (op === 2 && saved.length > 0) {
          await sm.revert();
          model = saved.pop() as Model;
        } else if (op === 3) {
          const [nonce, balance] = [BigInt(rand(5)), BigInt(rand(1000))];
          // As the EVM and the dev methods write an account: the one read, fields changed.
          const account = (await sm.getAccount(a)) ?? new Account();
          account.nonce = nonce;
          account.balance = balance;
          await sm.putAccount(a, account);
          const m = model.get(i) ?? emptyModelAccount();
          model.set(i, { ...m, nonce, balance });
        } else if (op === 4) {
          // As the EVM deletes a self-destructed account: its storage is cleared first.
          if ((await sm.getAccount(a)) !== undefined) await sm.clearStorage(a);
          await sm.deleteAccount(a);
          model.delete(i);
        } else if (op === 5) {
          const s = rand(3);
          const value = rand(3) === 0 ? 0 : 1 + rand(255);
          const m = model.get(i);
          if (m === undefined) {
            await expect(sm.putStorage(a, slot(s), Uint8Array.of(value)), where).rejects.toThrow(
              'non-existing account',
            );
          } else {
            await sm.putStorage(a, slot(s), value === 0 ? new Uint8Array(0) : Uint8Array.of(value));
            const storage = new Map(m.storage);
            if (value === 0) storage.delete(s);
            else storage.set(s, value);
            model.set(i, { ...m, storage });
          }
        } else if (op === 6) {
          const code = rand(3) === 0 ? new Uint8Array(0) : Uint8Array.of(0x60, rand(256), 0x00);
          await sm.putCode(a, code);
          model.set(i, { ...(model.get(i) ?? emptyModelAccount()), code });
        } else if (op === 7) {
          // @ethereumjs's clearStorage makes the account when there is none.
          await sm.clearStorage(a);
          model.set(i, { ...(model.get(i) ?? emptyModelAccount()), storage: new Map() });
        } else if (op === 8 && saved.length === 0) {
          expect(bytesToHex(await sm.getStateRoot()), where).toBe(await modelRoot(model));
        } else if (op === 9) {
          // Changing what was read changes nothing.
          const got = await sm.getAccount(a);
          if (got) {
            got.balance += 1n;
            got.nonce += 1n;
          }
        } else if (op === 10 && saved.length === 0) {
          expect(bytesToHex(await sm.getStateRoot()), where).toBe(await modelRoot(model));
          sm.clearCaches();
        } else {
          const m = model.get(i);
          const got = await sm.getAccount(a);
          expect(got && `${got.nonce}/${got.balance}`, where).toBe(m && `${m.nonce}/${m.balance}`);
          const s = rand(3);
          expect(bytesToHex(await sm.getStorage(a, slot(s))), where).toBe(
            bytesToHex(m?.storage.has(s) ? Uint8Array.of(m.storage.get(s) as number) : new Uint8Array(0)),
          );
          expect(bytesToHex(await sm.getCode(a)), where).toBe(bytesToHex(m?.code ?? new Uint8Array(0)));
        }
      }
      while (saved.length > 0) {
        await sm.commit();
        saved.pop();
      }
      expect(bytesToHex(await sm.getStateRoot())).toBe(await modelRoot(model));
    });
  }
});
