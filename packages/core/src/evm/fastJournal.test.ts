import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches } from '@ethereumjs/statemanager';
import { Account, Address, MapDB, bigIntToBytes, setLengthLeft } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HARDFORK, createDevCommon } from '../chain/chainCommon.js';
import { ChainStateManager } from '../chain/ChainStateManager.js';
import { CowTrie, TrieContext } from '../trie/CowTrie.js';
import { originalJournalMethods } from './fastJournal.js';
import { installEngineSpeedups } from './internals.js';

type Fn = (...args: unknown[]) => unknown;
interface TestJournal {
  journalHeight: number;
  journalDiff: unknown[];
  touched: Set<string>;
  journal: Map<string, Set<string>>;
  putAccount(a: Address, acc: Account | undefined): Promise<void>;
  checkpoint(): Promise<void>;
  commit(): Promise<void>;
  revert(): Promise<void>;
  cleanup(): Promise<void>;
  addWarmedAddress(a: Uint8Array): void;
  touchAddress(a: Address): void;
}
type JournalClass = new (sm: unknown, common: unknown) => TestJournal;

const address = (i: number) => new Address(setLengthLeft(bigIntToBytes(BigInt(i + 1)), 20));
const REPLACED = ['putAccount', 'checkpoint', 'commit', 'cleanup'] as const;

let Journal: JournalClass;
beforeAll(async () => {
  await installEngineSpeedups();
  const esmDir = join(dirname(createRequire(import.meta.url).resolve('@ethereumjs/evm')), '..', 'esm');
  Journal = ((await import(pathToFileURL(join(esmDir, 'journal.js')).href)) as { Journal: JournalClass }).Journal;
});

/** A journal over a ChainStateManager on a CowTrie with `accounts` flushed into the trie (not cached). */
async function setup(methods: 'original' | 'fast') {
  const common = createDevCommon(31337n, DEFAULT_HARDFORK);
  const ctx = new TrieContext(new MapDB<string, Uint8Array | string>(), keccak_256, { useKeyHashing: true, common });
  const trie = new CowTrie(ctx) as unknown as MerklePatriciaTrie;
  const sm = new ChainStateManager({ common, trie, caches: new Caches() });
  // In the trie, out of the caches: an empty account (cleanup reads it through getAccount) and a funded one.
  await sm.checkpoint();
  await sm.putAccount(address(0), new Account());
  await sm.putAccount(address(1), new Account(0n, 10n));
  await sm.commit();
  await sm.flush();
  sm.clearCaches();
  const journal = new Journal(sm, common);
  if (methods === 'original') {
    for (const name of REPLACED) {
      Object.defineProperty(journal, name, { value: originalJournalMethods[name] as Fn, configurable: true });
    }
  }
  return { sm, journal };
}

/** A transaction's journal work: nested frames, one reverted, a commit, then EIP-161 cleanup. */
async function run(methods: 'original' | 'fast') {
  const { sm, journal } = await setup(methods);
  await journal.checkpoint();
  await journal.putAccount(address(2), new Account(1n, 5n)); // new, kept
  await journal.putAccount(address(3), new Account()); // new and empty (cached): removed by cleanup
  journal.addWarmedAddress(address(2).bytes);
  await journal.checkpoint();
  await journal.putAccount(address(4), new Account(0n, 3n)); // reverted with its frame
  await journal.putAccount(address(1), new Account(0n, 11n));
  journal.addWarmedAddress(address(4).bytes);
  await journal.revert();
  await journal.checkpoint();
  await journal.putAccount(address(5), new Account(0n, 1n));
  await journal.commit();
  // Touch the empty account in the trie (not cached, as a 0-value CALL to it): cleanup reads it, then deletes it.
  journal.touchAddress(address(0));
  await journal.putAccount(address(2), new Account(1n, 6n));
  const beforeCleanup = {
    height: journal.journalHeight,
    diffs: journal.journalDiff.length,
    touched: [...journal.touched],
    warm: [...journal.journal.keys()],
  };
  await journal.commit();
  await journal.cleanup();
  await sm.flush();
  const accounts: (string | undefined)[] = [];
  for (let i = 0; i < 6; i++) {
    const a = await sm.getAccount(address(i));
    accounts.push(a && `${a.nonce}/${a.balance}`);
  }
  return { beforeCleanup, accounts, root: await sm.getStateRoot(), touchedAfter: journal.touched.size };
}

describe('fastJournal', () => {
  it('replaces the journal methods at the pinned @ethereumjs version', () => {
    expect(Object.keys(originalJournalMethods).sort()).toEqual([...REPLACED].sort());
    for (const name of REPLACED) {
      expect((Journal.prototype as unknown as Record<string, unknown>)[name]).not.toBe(originalJournalMethods[name]);
    }
  });

  it('leaves the same state, warm set, touched set and EIP-161 deletions as the originals', async () => {
    const original = await run('original');
    const fast = await run('fast');
    expect(fast).toEqual(original);
    // The empty accounts touched (one cached, one read from the trie) are gone; the reverted one never was.
    expect(fast.accounts).toEqual([undefined, '0/10', '1/6', undefined, undefined, '0/1']);
  });

  it('answers a synchronous failure of the state manager with a rejected promise', async () => {
    const { sm, journal } = await setup('fast');
    const boom = new Error('boom');
    Object.defineProperty(sm, 'checkpoint', {
      value: () => {
        throw boom;
      },
    });
    const answer = journal.checkpoint();
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).rejects.toBe(boom);
  });
});
