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
import { EMPTY_DIFF, originalJournalMethods } from './fastJournal.js';
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
  addWarmedStorage(a: Uint8Array, slot: Uint8Array): void;
  isWarmedAddress(a: Uint8Array): boolean;
  isWarmedStorage(a: Uint8Array, slot: Uint8Array): boolean;
  touchAddress(a: Address): void;
  cleanJournal(): void;
}
type JournalClass = new (sm: unknown, common: unknown) => TestJournal;

const address = (i: number) => new Address(setLengthLeft(bigIntToBytes(BigInt(i + 1)), 20));
const REPLACED = [
  'putAccount',
  'checkpoint',
  'commit',
  'cleanup',
  'touchAccount',
  'addWarmedAddress',
  'addWarmedStorage',
  'cleanJournal',
] as const;
const slot = (i: number) => setLengthLeft(bigIntToBytes(BigInt(i)), 32);

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
    // The constructor ran the replaced cleanJournal: start again from the original's fresh diff.
    journal.cleanJournal();
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

/** Everything revert reads and what the EVM asks: warm sets, touched set, the diffs (as plain arrays). */
function snapshot(journal: TestJournal) {
  const diffs = (journal.journalDiff as [number, [Set<string>, Map<string, Set<string>>, Set<string>]][]).map(
    ([height, [addresses, slots, touched]]) => [
      height,
      [...addresses],
      [...slots].map(([a, s]) => [a, [...s]]),
      [...touched],
    ],
  );
  const warm: boolean[] = [];
  for (let i = 0; i < 8; i++) {
    warm.push(journal.isWarmedAddress(address(i).bytes));
    for (let k = 0; k < 3; k++) warm.push(journal.isWarmedStorage(address(i).bytes, slot(k)));
  }
  return {
    height: journal.journalHeight,
    diffs,
    warm,
    touched: [...journal.touched],
    journal: [...journal.journal].map(([a, s]) => [a, [...s]]),
  };
}

/**
 * Nested frames that warm addresses and slots and touch accounts at some heights and not at
 * others (reverted frames, committed frames, an empty frame between two recording ones, slots
 * warmed again after their frame was reverted), with a snapshot after every step.
 */
async function warmAndRevert(methods: 'original' | 'fast') {
  const { journal } = await setup(methods);
  const steps: unknown[] = [];
  const step = async (f: () => unknown) => {
    await f();
    steps.push(snapshot(journal));
  };
  await step(() => journal.addWarmedAddress(address(7).bytes));
  await step(() => journal.checkpoint());
  await step(() => journal.checkpoint()); // a height that records nothing
  await step(() => journal.commit());
  await step(() => journal.addWarmedStorage(address(2).bytes, slot(0)));
  await step(() => journal.checkpoint());
  await step(() => journal.addWarmedStorage(address(2).bytes, slot(1)));
  await step(() => journal.addWarmedStorage(address(3).bytes, slot(2))); // warms the address too
  await step(() => journal.touchAddress(address(4)));
  await step(() => journal.checkpoint());
  await step(() => journal.checkpoint()); // empty
  await step(() => journal.revert());
  await step(() => journal.addWarmedAddress(address(5).bytes));
  await step(() => journal.touchAddress(address(5)));
  await step(() => journal.revert());
  await step(() => journal.commit());
  await step(() => journal.revert()); // undoes slot 1, address 3 with slot 2 and the touch of 4
  await step(() => journal.addWarmedStorage(address(3).bytes, slot(2))); // warmed again after the revert
  await step(() => journal.touchAddress(address(4)));
  await step(() => journal.checkpoint());
  await step(() => journal.touchAddress(address(6)));
  await step(() => journal.commit());
  await step(() => journal.cleanup());
  await step(() => journal.addWarmedAddress(address(1).bytes));
  await step(() => journal.cleanJournal());
  return steps;
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

  it('records warm addresses, warm slots and touches per height and reverts them as the originals', async () => {
    const original = await warmAndRevert('original');
    const fast = await warmAndRevert('fast');
    expect(fast).toEqual(original);
    // The shared diff of heights that recorded nothing stayed empty.
    expect(EMPTY_DIFF[0].size + EMPTY_DIFF[1].size + EMPTY_DIFF[2].size).toBe(0);
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
