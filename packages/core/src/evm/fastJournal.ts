/**
 * @ethereumjs/evm 10.1.3's Journal methods every transaction runs several times, without the
 * promises that only wrap the state manager's (each installed only when the original's source is
 * byte for byte the one written against, SHA-256 of its text):
 *
 * - `checkpoint`, `commit`, `putAccount`: `async` functions whose only await is the state
 *   manager's answer. They do the same synchronous work in the same order and hand back the state
 *   manager's own promise (an error thrown synchronously comes back as a rejected promise, as
 *   from an async function). A transfer checkpoints and commits twice (runTx, runCall) and puts
 *   ~6 accounts: each call made an async function's promise and awaited the state manager's.
 * - `cleanup` (EIP-161 touched-account removal, then a fresh journal): reads each touched
 *   account from the state manager's cache without a promise when it is there (`accountNow`, a
 *   ChainStateManager's), awaiting getAccount only on a miss; the same accounts are deleted in
 *   the same order. A transfer touches the sender, the recipient and the coinbase, all cached
 *   and none empty: then nothing is awaited and the answer is the shared SETTLED (an async
 *   function made a promise per call, three per transfer); `cleanupRest` goes on from the first
 *   account that needs a read or a delete.
 * - The journal's per-height diff (what `revert` undoes: warmed addresses, warmed slots, touched
 *   accounts) made three fresh collections at every checkpoint, commit and cleanJournal, ~5 times
 *   per transfer, though most heights record nothing (~7 KB of garbage per transfer). When
 *   `checkpoint`, `commit`, `cleanJournal` and the three methods that record into the diff
 *   (`touchAccount`, `addWarmedAddress`, `addWarmedStorage`) are all the pinned originals, a new
 *   height gets the shared EMPTY_DIFF, and a recorder swaps in fresh collections before its first
 *   write at that height (`ownDiff`). EMPTY_DIFF is never written, so `revert` (not replaced)
 *   reads it as the empty height it stands for. If any one of those six differs, none of them
 *   is replaced lazily (checkpoint and commit still lose their async wrapper, with fresh sets).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Hardfork } from '@ethereumjs/common';
import { Address, type Account, EthereumJSErrorWithoutCode } from '@ethereumjs/util';
import { SETTLED } from '../util/settled.js';
import { cachedAccount } from './cachedAccount.js';
import { bytesToHex, bytesToUnprefixedHex, hexToBytes, unprefixedHexToBytes } from './fastBytes.js';

const SHA256 = {
  putAccount: 'c5f55358a1f68264feaaed103bf56cfd835ec0d6ea57e7b49ba55a7eac7b4086',
  checkpoint: 'c499c4882d2496b23e9be86d9eee49967ad325201176ec9a8e1af6d17cb39ae6',
  commit: '22069975fbda074b1b3a71afc1c41f2c23f00bfebf1623d89b2fb943b81f8967',
  cleanup: 'caf804e35c079fe0c5d78c9e4a1f7d39c7734fdb7b2474cd506882b640fbfa1b',
  touchAccount: '53ddf8bb7613c74951cace16e2a6b39e0d67ca75b74538ae9cae7d201ff9b7a7',
  addWarmedAddress: '61726fa248c4233cd4af0236381660bcbb6aa940da71afe0e0b0a0863067c377',
  addWarmedStorage: '4025a2e5951e6487e3bf7cc9838c98e68c474f5658bb36883da9205529f1398e',
  cleanJournal: 'e499b4edb7afe69c94f2cb6726d059f70011e833d391ed3a2c62514e9028e2b0',
};

/** The originals that must all be the pinned ones for the lazy diff (see the header). */
const LAZY_DIFF_METHODS = [
  'checkpoint',
  'commit',
  'cleanJournal',
  'touchAccount',
  'addWarmedAddress',
  'addWarmedStorage',
] as const;

const sha256 = (f: unknown): string => createHash('sha256').update(String(f)).digest('hex');

type DiffSets = [Set<string>, Map<string, Set<string>>, Set<string>];
type JournalDiff = [number, DiffSets];

/** The diff of a height that recorded nothing yet: shared, never written (recorders swap in their own). */
export const EMPTY_DIFF: DiffSets = [new Set(), new Map(), new Set()];

/** The last height's diff, made its own first if it is still the shared EMPTY_DIFF. */
function ownDiff(journalDiff: JournalDiff[]): DiffSets {
  const entry = journalDiff[journalDiff.length - 1];
  let diff = entry[1];
  if (diff === EMPTY_DIFF) {
    diff = [new Set(), new Map(), new Set()];
    entry[1] = diff;
  }
  return diff;
}

interface JournalStateManager {
  putAccount(address: Address, account: Account | undefined): unknown;
  getAccount(address: Address): Promise<Account | undefined>;
  checkpoint(): unknown;
  commit(): unknown;
  /** A ChainStateManager's cache read: the account, null when known absent, undefined when not cached. */
  accountNow?(address: Address): Account | null | undefined;
}

interface JournalLike {
  DEBUG: boolean;
  _debug(message: string): void;
  journalHeight: number;
  journalDiff: JournalDiff[];
  touched: Set<string>;
  journal: Map<string, Set<string>>;
  alwaysWarmJournal: Map<string, Set<string>>;
  accessList?: Map<string, Set<string>>;
  preimages?: Map<string, Uint8Array>;
  stateManager: JournalStateManager;
  common: { gteHardfork(hardfork: string): boolean };
  touchAddress(address: Address): void;
  addWarmedAddress(address: Uint8Array): void;
  deleteAccount(address: Address): Promise<void>;
  cleanJournal(): void;
}

/** The originals replaced, for tests. */
export const originalJournalMethods: Record<string, unknown> = {};

/** What an awaited call of an async function that returned `value` would settle to (void here). */
function asPromise(value: unknown): Promise<void> {
  return value instanceof Promise ? (value as Promise<void>) : Promise.resolve();
}

/**
 * The rest of `cleanup` from the touched account `first` on, `walk` holding the ones after it:
 * `known` is what the state manager's cache answered for `first` (undefined: not cached, read
 * now). The same steps as the original's loop.
 */
async function cleanupRest(
  j: JournalLike,
  walk: IterableIterator<string>,
  first: Address,
  known: Account | null | undefined,
): Promise<void> {
  const sm = j.stateManager;
  let address = first;
  let cached = known;
  for (;;) {
    const account = cached === undefined ? await sm.getAccount(address) : (cached ?? undefined);
    if (account === undefined || account.isEmpty()) {
      await j.deleteAccount(address);
      if (j.DEBUG) {
        j._debug(`Cleanup touched account address=${address} (>= SpuriousDragon)`);
      }
    }
    const next = walk.next();
    if (next.done) break;
    address = new Address(hexToBytes(`0x${next.value}`));
    cached = cachedAccount(sm, address);
  }
  endCleanup(j);
}

/** The end of `cleanup`: a fresh journal, no access list or preimages. */
function endCleanup(j: JournalLike): void {
  j.cleanJournal();
  delete j.accessList;
  delete j.preimages;
}

/** Installs the journal methods above (each only if its source is the expected one). */
export async function installFastJournal(esmDir: string): Promise<void> {
  const mod = (await import(pathToFileURL(join(esmDir, 'journal.js')).href)) as Record<string, unknown>;
  const proto = (mod.Journal as { prototype?: Record<string, unknown> } | undefined)?.prototype;
  if (!proto) return;
  const lazy = LAZY_DIFF_METHODS.every((name) => sha256(proto[name]) === SHA256[name]);
  const replace = (name: keyof typeof SHA256, fn: unknown): void => {
    if (sha256(proto[name]) !== SHA256[name]) return;
    originalJournalMethods[name] = proto[name];
    proto[name] = fn;
  };

  replace(
    'putAccount',
    function putAccount(this: JournalLike, address: Address, account: Account | undefined): Promise<void> {
      try {
        this.touchAddress(address);
        return asPromise(this.stateManager.putAccount(address, account));
      } catch (e) {
        return Promise.reject(e);
      }
    },
  );

  replace('checkpoint', function checkpoint(this: JournalLike): Promise<void> {
    try {
      this.journalHeight++;
      this.journalDiff.push([this.journalHeight, lazy ? EMPTY_DIFF : [new Set(), new Map(), new Set()]]);
      return asPromise(this.stateManager.checkpoint());
    } catch (e) {
      return Promise.reject(e);
    }
  });

  replace('commit', function commit(this: JournalLike): Promise<void> {
    try {
      this.journalHeight--;
      this.journalDiff.push([this.journalHeight, lazy ? EMPTY_DIFF : [new Set(), new Map(), new Set()]]);
      return asPromise(this.stateManager.commit());
    } catch (e) {
      return Promise.reject(e);
    }
  });

  replace('cleanup', function cleanup(this: JournalLike): Promise<void> {
    try {
      if (this.common.gteHardfork(Hardfork.SpuriousDragon)) {
        const sm = this.stateManager;
        // The same walk over the live set as the original's for…of; it goes on in
        // cleanupRest from the first account that needs a promise (read, or deleted).
        const walk = this.touched.values();
        for (let next = walk.next(); !next.done; next = walk.next()) {
          const address = new Address(hexToBytes(`0x${next.value}`));
          const known = cachedAccount(sm, address);
          if (known === undefined || known === null || known.isEmpty()) return cleanupRest(this, walk, address, known);
        }
      }
      endCleanup(this);
    } catch (e) {
      return Promise.reject(e);
    }
    return SETTLED;
  });

  if (!lazy) return;

  // The originals' text with the diff they record into made their own first (ownDiff).
  replace('touchAccount', function touchAccount(this: JournalLike, address: string): void {
    if (this.preimages !== undefined) {
      const bytesAddress = unprefixedHexToBytes(address);
      const sm = this.stateManager as JournalStateManager & { getAppliedKey?: (key: Uint8Array) => Uint8Array };
      if (sm.getAppliedKey === undefined) {
        throw EthereumJSErrorWithoutCode(
          'touchAccount: stateManager.getAppliedKey can not be undefined if preimage storing is enabled',
        );
      }
      const hashedKey = sm.getAppliedKey(bytesAddress);
      this.preimages.set(bytesToHex(hashedKey), bytesAddress);
    }
    if (!this.touched.has(address)) {
      this.touched.add(address);
      ownDiff(this.journalDiff)[2].add(address);
    }
  });

  replace('addWarmedAddress', function addWarmedAddress(this: JournalLike, addressArr: Uint8Array): void {
    const address = bytesToUnprefixedHex(addressArr);
    if (!this.journal.has(address)) {
      this.journal.set(address, new Set());
      ownDiff(this.journalDiff)[0].add(address);
    }
    if (this.accessList !== undefined) {
      if (!this.accessList.has(address)) {
        this.accessList.set(address, new Set());
      }
    }
  });

  replace(
    'addWarmedStorage',
    function addWarmedStorage(this: JournalLike, address: Uint8Array, slot: Uint8Array): void {
      const addressHex = bytesToUnprefixedHex(address);
      let slots = this.journal.get(addressHex);
      if (slots === undefined) {
        this.addWarmedAddress(address);
        slots = this.journal.get(addressHex) as Set<string>;
      }
      const slotStr = bytesToUnprefixedHex(slot);
      if (!slots.has(slotStr)) {
        slots.add(slotStr);
        const addressSlotMap = ownDiff(this.journalDiff)[1];
        if (!addressSlotMap.has(addressHex)) {
          addressSlotMap.set(addressHex, new Set());
        }
        const slotsSet = addressSlotMap.get(addressHex) as Set<string>;
        slotsSet.add(slotStr);
      }
      if (this.accessList !== undefined) {
        // Note: in `addWarmedAddress` the address is added to warm addresses
        const addrSet = this.accessList.get(addressHex) as Set<string>;
        addrSet.add(slotStr);
      }
    },
  );

  replace('cleanJournal', function cleanJournal(this: JournalLike): void {
    this.journalHeight = 0;
    this.journal = new Map();
    this.alwaysWarmJournal = new Map();
    this.touched = new Set();
    this.journalDiff = [[0, EMPTY_DIFF]];
  });
}
