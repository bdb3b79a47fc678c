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
 *   the same order. A transfer touches the sender, the recipient and the coinbase.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Hardfork } from '@ethereumjs/common';
import { Address, type Account } from '@ethereumjs/util';
import { hexToBytes } from './fastBytes.js';

const SHA256 = {
  putAccount: 'c5f55358a1f68264feaaed103bf56cfd835ec0d6ea57e7b49ba55a7eac7b4086',
  checkpoint: 'c499c4882d2496b23e9be86d9eee49967ad325201176ec9a8e1af6d17cb39ae6',
  commit: '22069975fbda074b1b3a71afc1c41f2c23f00bfebf1623d89b2fb943b81f8967',
  cleanup: 'caf804e35c079fe0c5d78c9e4a1f7d39c7734fdb7b2474cd506882b640fbfa1b',
};

const sha256 = (f: unknown): string => createHash('sha256').update(String(f)).digest('hex');

type JournalDiff = [number, [Set<string>, Map<string, Set<string>>, Set<string>]];

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
  accessList?: unknown;
  preimages?: unknown;
  stateManager: JournalStateManager;
  common: { gteHardfork(hardfork: string): boolean };
  touchAddress(address: Address): void;
  deleteAccount(address: Address): Promise<void>;
  cleanJournal(): void;
}

/** The originals replaced, for tests. */
export const originalJournalMethods: Record<string, unknown> = {};

/** What an awaited call of an async function that returned `value` would settle to (void here). */
function asPromise(value: unknown): Promise<void> {
  return value instanceof Promise ? (value as Promise<void>) : Promise.resolve();
}

/** Installs the journal methods above (each only if its source is the expected one). */
export async function installFastJournal(esmDir: string): Promise<void> {
  const mod = (await import(pathToFileURL(join(esmDir, 'journal.js')).href)) as Record<string, unknown>;
  const proto = (mod.Journal as { prototype?: Record<string, unknown> } | undefined)?.prototype;
  if (!proto) return;
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
      this.journalDiff.push([this.journalHeight, [new Set(), new Map(), new Set()]]);
      return asPromise(this.stateManager.checkpoint());
    } catch (e) {
      return Promise.reject(e);
    }
  });

  replace('commit', function commit(this: JournalLike): Promise<void> {
    try {
      this.journalHeight--;
      this.journalDiff.push([this.journalHeight, [new Set(), new Map(), new Set()]]);
      return asPromise(this.stateManager.commit());
    } catch (e) {
      return Promise.reject(e);
    }
  });

  replace('cleanup', async function cleanup(this: JournalLike): Promise<void> {
    if (this.common.gteHardfork(Hardfork.SpuriousDragon)) {
      const sm = this.stateManager;
      for (const addressHex of this.touched) {
        const address = new Address(hexToBytes(`0x${addressHex}`));
        const known = typeof sm.accountNow === 'function' ? sm.accountNow(address) : undefined;
        const account = known === undefined ? await sm.getAccount(address) : (known ?? undefined);
        if (account === undefined || account.isEmpty()) {
          await this.deleteAccount(address);
          if (this.DEBUG) {
            this._debug(`Cleanup touched account address=${address} (>= SpuriousDragon)`);
          }
        }
      }
    }
    this.cleanJournal();
    delete this.accessList;
    delete this.preimages;
  });
}
