import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches } from '@ethereumjs/statemanager';
import { Account, Address, MapDB, bytesToBigInt, setLengthLeft } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HARDFORK, createDevCommon } from '../chain/chainCommon.js';
import { CowTrie, TrieContext } from '../trie/CowTrie.js';
import { ForkState } from './ForkState.js';
import { ForkStateManager } from './ForkStateManager.js';
import type { ForkStateSource, UpstreamAccount } from './upstream/index.js';

const whale = new Address(new Uint8Array(20).fill(0xaa));
const token = new Address(new Uint8Array(20).fill(0xbb));
const fresh = new Address(new Uint8Array(20).fill(0xcc));
const slot = (n: number) => setLengthLeft(Uint8Array.of(n), 32);
const CODE = Uint8Array.of(0x60, 0x01, 0x60, 0x00, 0x55);

/** A stand-in for the upstream at N: two accounts, two slots of the token; counts what it is asked. */
function stubSource() {
  const asked: string[] = [];
  const accounts = new Map<string, UpstreamAccount>([
    [whale.toString(), { nonce: 3n, balance: 1000n, code: new Uint8Array() }],
    [token.toString(), { nonce: 1n, balance: 0n, code: CODE }],
  ]);
  const source = {
    blockNumber: 7n,
    stats: { upstreamStateCalls: 0, cacheHits: 0, cacheWriteFailures: 0 },
    async getAccount(a: Uint8Array) {
      const key = new Address(a).toString();
      asked.push(`account ${key}`);
      return accounts.get(key) ?? { nonce: 0n, balance: 0n, code: new Uint8Array() };
    },
    async getStorage(a: Uint8Array, s: Uint8Array) {
      asked.push(`slot ${new Address(a).toString()} ${bytesToBigInt(s)}`);
      const word = new Uint8Array(32);
      if (new Address(a).equals(token)) word[31] = Number(bytesToBigInt(s)) + 40; // slot n holds 40 + n
      return word;
    },
  };
  return { source: source as unknown as ForkStateSource, asked };
}

function setup() {
  const common = createDevCommon(31337n, DEFAULT_HARDFORK);
  const ctx = new TrieContext(new MapDB<string, Uint8Array | string>(), keccak_256, { useKeyHashing: true, common });
  const { source, asked } = stubSource();
  const state = new ForkState(source);
  const sm = (root?: Uint8Array) => {
    const trie = new CowTrie(ctx, root) as unknown as MerklePatriciaTrie;
    return new ForkStateManager({ common, trie, caches: new Caches() }, state);
  };
  return { sm, asked };
}

const word = async (m: ForkStateManager, a: Address, n: number) => bytesToBigInt(await m.getStorage(a, slot(n)));

describe('ForkStateManager', () => {
  it('reads what the local trie lacks from the upstream: account, code, storage', async () => {
    const { sm } = setup();
    const m = sm();
    const w = await m.getAccount(whale);
    expect(w?.balance).toBe(1000n);
    expect(w?.nonce).toBe(3n);
    expect(await m.getCode(token)).toEqual(CODE);
    expect(await word(m, token, 2)).toBe(42n);
    expect(await m.getAccount(fresh)).toBeUndefined();
  });

  it('a zero written over an upstream slot stays zero, in this state and at its root', async () => {
    const { sm } = setup();
    const m = sm();
    await m.putStorage(token, slot(1), new Uint8Array(32));
    expect(await m.getStorage(token, slot(1))).toEqual(new Uint8Array(0));
    expect(await word(m, token, 2)).toBe(42n);
    const root = await m.getStateRoot();
    const again = sm(root);
    expect(await again.getStorage(token, slot(1))).toEqual(new Uint8Array(0));
    expect(await word(again, token, 2)).toBe(42n);
  });

  it('an upstream account deleted locally stays deleted, storage included; a revert brings it back', async () => {
    const { sm } = setup();
    const m = sm();
    await m.checkpoint();
    await m.deleteAccount(token);
    expect(await m.getAccount(token)).toBeUndefined();
    expect(await m.getStorage(token, slot(1))).toEqual(new Uint8Array(0));
    await m.revert();
    expect(await word(m, token, 1)).toBe(41n);
    await m.deleteAccount(token);
    const root = await m.getStateRoot();
    const after = sm(root);
    expect(await after.getAccount(token)).toBeUndefined();
    // Created again (CREATE2 at the same address): its storage is all local.
    await after.putAccount(token, new Account(1n, 0n));
    expect(await after.getStorage(token, slot(1))).toEqual(new Uint8Array(0));
  });

  it('cleared storage no longer falls through', async () => {
    const { sm } = setup();
    const m = sm();
    await m.clearStorage(token);
    expect(await m.getStorage(token, slot(3))).toEqual(new Uint8Array(0));
    expect((await m.getAccount(token))?.nonce).toBe(1n);
  });

  it('an account the upstream does not have is local: its slots are never asked for', async () => {
    const { sm, asked } = setup();
    const m = sm();
    await m.putAccount(fresh, new Account(0n, 5n));
    await m.putStorage(fresh, slot(1), Uint8Array.of(9));
    expect(await word(m, fresh, 1)).toBe(9n);
    expect(await word(m, fresh, 2)).toBe(0n);
    expect(asked.filter((q) => q.startsWith('slot'))).toEqual([]);
    expect(asked.filter((q) => q === `account ${fresh.toString()}`)).toHaveLength(1);
  });

  it('the upstream is asked once per account and slot, whatever the number of state managers', async () => {
    const { sm, asked } = setup();
    for (let i = 0; i < 3; i++) {
      const m = sm();
      await m.getAccount(whale);
      await word(m, token, 5);
    }
    expect(asked.filter((q) => q === `account ${whale.toString()}`)).toHaveLength(1);
    expect(asked.filter((q) => q.startsWith('slot'))).toHaveLength(1);
  });
});
