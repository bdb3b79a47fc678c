/**
 * Cheaper versions of two small @ethereumjs/evm 10.1.3 functions every transaction and call runs,
 * each installed only when the original's source is byte for byte the one written against
 * (SHA-256 of its text), with the same results:
 *
 * - SLOAD's gas handler and handler (`opcodes/gas.js` `dynamicGasHandlers`, `opcodes/functions.js`
 *   `handlers`, copied into each EVM's opcode table when it is made): each turned the slot number
 *   into its 32-byte key with `setLengthLeft(bigIntToBytes(key), 32)`, a hex string, a byte array
 *   and two array spreads through iterators; the key is now written into 32 bytes directly
 *   (`writeWord`). The gas handler no longer awaits anything it did not await before, so it returns
 *   its figure synchronously (the interpreter takes either).
 * - `Journal.prototype.addAlwaysWarmAddress`, called for every precompile, the sender, the
 *   recipient and the coinbase of every transaction: `stripHexPrefix` matched a regular
 *   expression (allocating the match) on each address; the same test is now made by hand, and
 *   an address gets the shared empty NO_WARM_SLOTS instead of a new Set (`addAlwaysWarmSlot`,
 *   replaced with it, gives an address its own Set before adding a slot).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIGINT_0, EthereumJSErrorWithoutCode } from '@ethereumjs/util';
import { bytesToBigInt } from './fastBytes.js';
import { writeWord } from './wordBytes.js';

const SHA256 = {
  sloadGas: 'bcc3d658b9e4417bbc647ee3519c9e268bed3350762c2a5a7033570a7d127b2d',
  sloadOp: 'f0aad8fd616a70240813743839d63f9801d0c2d4dc1d7eb4d99cfd6a8e2baa98',
  addAlwaysWarmAddress: 'e56b9c77a3644e6ce66ab96408df7e601957014565655f692e7470a950e5ca96',
  addAlwaysWarmSlot: '2dcc46fdcbe01820cb7008e51d51c69eb0c6e2a0a1a1a3c72c78db7a3558e6c7',
};

const sha256 = (f: unknown): string => createHash('sha256').update(String(f)).digest('hex');

/** The 32-byte big-endian key of a storage slot number (0 ≤ key < 2^256), a fresh array. */
export function slotKey(key: bigint): Uint8Array {
  const out = new Uint8Array(32);
  if (key !== 0n) writeWord(out, 0, key);
  return out;
}

/** @ethereumjs/util's `stripHexPrefix`: drops `0x` when the whole string matches /^0x[0-9A-Fa-f]*$/. */
export function stripHexPrefixFast(str: unknown): string {
  if (typeof str !== 'string') {
    throw EthereumJSErrorWithoutCode(`[stripHexPrefix] input must be type 'string', received ${typeof str}`);
  }
  if (str.charCodeAt(0) !== 48 || str.charCodeAt(1) !== 120) return str;
  for (let i = 2; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102))) return str;
  }
  return str.slice(2);
}

interface SloadRunState {
  stack: { peek(n?: number): bigint[]; pop(): bigint; push(v: bigint): void };
  interpreter: { getAddress(): unknown; storageLoad(key: Uint8Array): Promise<Uint8Array> };
  env: { accessWitness: { readAccountStorage(address: unknown, key: bigint): bigint } };
}
interface EipCommon {
  isActivatedEIP(eip: number): boolean;
}
type AccessStorage = (rs: unknown, key: Uint8Array, isWrite: boolean, common: unknown, charge: boolean) => bigint;

/** The originals replaced, for tests that compare them with the installed ones. */
export const originalStorageOps: {
  sloadGas?: unknown;
  sloadOp?: unknown;
  addAlwaysWarmAddress?: unknown;
  addAlwaysWarmSlot?: unknown;
} = {};

/**
 * The warm slots of an always-warm address that has none: one shared empty Set instead of a new
 * one per address per transaction (every precompile, the sender, the recipient and the coinbase
 * of every transaction get an entry; only access-list addresses ever get slots, through
 * addAlwaysWarmSlot, which gives the address its own Set first). Changing it throws, so nothing
 * can fill it for every address at once.
 */
class NoWarmSlots extends Set<string> {
  override add(): this {
    throw new Error('NoWarmSlots is shared and stays empty');
  }
  override delete(): boolean {
    throw new Error('NoWarmSlots is shared and stays empty');
  }
  override clear(): void {
    throw new Error('NoWarmSlots is shared and stays empty');
  }
}
export const NO_WARM_SLOTS: ReadonlySet<string> = new NoWarmSlots();

type WarmJournal = {
  alwaysWarmJournal: Map<string, Set<string>>;
  accessList?: Map<string, Set<string>>;
  addAlwaysWarmAddress(address: string, addToAccessList?: boolean): void;
};

/** The addAlwaysWarmAddress installed below; undefined while the original is kept. */
let installedAddAlwaysWarmAddress: unknown;

/** Per precompiles map (the EVM makes a new one when its hardfork or custom precompiles change): its always-warm entries. */
const precompileWarmth = new WeakMap<Map<string, unknown>, Map<string, Set<string>>>();

/**
 * What runTx does first for EIP-2929, `for (const key of precompiles.keys())
 * journal.addAlwaysWarmAddress(key)`, as one copy of a map made once per precompiles map: into
 * the empty always-warm set a transaction starts with, the installed addAlwaysWarmAddress puts
 * each precompile's unprefixed address with NO_WARM_SLOTS, in the keys' order, and nothing else.
 * Any other case (entries already there, the original method) takes the loop. The loop was 18
 * calls per transaction, each scanning a 42-character address.
 */
export function warmPrecompiles(journal: WarmJournal, precompiles: Map<string, unknown>): void {
  if (journal.alwaysWarmJournal.size !== 0 || journal.addAlwaysWarmAddress !== installedAddAlwaysWarmAddress) {
    for (const key of precompiles.keys()) journal.addAlwaysWarmAddress(key);
    return;
  }
  let warmth = precompileWarmth.get(precompiles);
  if (warmth === undefined || warmth.size !== precompiles.size) {
    warmth = new Map();
    for (const key of precompiles.keys()) warmth.set(stripHexPrefixFast(key), NO_WARM_SLOTS as Set<string>);
    precompileWarmth.set(precompiles, warmth);
  }
  journal.alwaysWarmJournal = new Map(warmth);
}

/** Installs the SLOAD handlers and the journal method above (each only if its source is the expected one). */
export async function installFastSload(esmDir: string): Promise<void> {
  const load = async (file: string) =>
    (await import(pathToFileURL(join(esmDir, file)).href)) as Record<string, unknown>;
  const gasMod = await load('opcodes/gas.js');
  const fnMod = await load('opcodes/functions.js');
  const eip2929 = await load('opcodes/EIP2929.js');
  const journalMod = await load('journal.js');
  const gasHandlers = gasMod.dynamicGasHandlers as Map<number, unknown> | undefined;
  const opHandlers = fnMod.handlers as Map<number, unknown> | undefined;
  const accessStorageEIP2929 = eip2929.accessStorageEIP2929 as AccessStorage | undefined;

  if (
    gasHandlers instanceof Map &&
    typeof accessStorageEIP2929 === 'function' &&
    sha256(gasHandlers.get(0x54)) === SHA256.sloadGas
  ) {
    originalStorageOps.sloadGas = gasHandlers.get(0x54);
    gasHandlers.set(0x54, function sloadGas(runState: SloadRunState, gas: bigint, common: EipCommon): bigint {
      const key = runState.stack.peek()[0] as bigint;
      const keyBuf = slotKey(key);
      let charge2929Gas = true;
      if (common.isActivatedEIP(6800) || common.isActivatedEIP(7864)) {
        const address = runState.interpreter.getAddress();
        const coldAccessGas = runState.env.accessWitness.readAccountStorage(address, key);
        gas += coldAccessGas;
        charge2929Gas = coldAccessGas === BIGINT_0;
      }
      if (common.isActivatedEIP(2929)) {
        gas += accessStorageEIP2929(runState, keyBuf, false, common, charge2929Gas);
      }
      return gas;
    });
  }

  if (opHandlers instanceof Map && sha256(opHandlers.get(0x54)) === SHA256.sloadOp) {
    originalStorageOps.sloadOp = opHandlers.get(0x54);
    opHandlers.set(0x54, async function sload(runState: SloadRunState): Promise<void> {
      const key = runState.stack.pop();
      const value = await runState.interpreter.storageLoad(slotKey(key));
      runState.stack.push(value.length ? bytesToBigInt(value) : BIGINT_0);
    });
  }

  const journal = (journalMod.Journal as { prototype?: Record<string, unknown> } | undefined)?.prototype;
  if (
    journal &&
    sha256(journal.addAlwaysWarmAddress) === SHA256.addAlwaysWarmAddress &&
    sha256(journal.addAlwaysWarmSlot) === SHA256.addAlwaysWarmSlot
  ) {
    originalStorageOps.addAlwaysWarmAddress = journal.addAlwaysWarmAddress;
    originalStorageOps.addAlwaysWarmSlot = journal.addAlwaysWarmSlot;
    journal.addAlwaysWarmAddress = function addAlwaysWarmAddress(
      this: WarmJournal,
      addressStr: string,
      addToAccessList = false,
    ): void {
      const address = stripHexPrefixFast(addressStr);
      if (!this.alwaysWarmJournal.has(address)) this.alwaysWarmJournal.set(address, NO_WARM_SLOTS as Set<string>);
      if (addToAccessList && this.accessList !== undefined) {
        if (!this.accessList.has(address)) this.accessList.set(address, new Set());
      }
    };
    installedAddAlwaysWarmAddress = journal.addAlwaysWarmAddress;
    journal.addAlwaysWarmSlot = function addAlwaysWarmSlot(
      this: WarmJournal,
      addressStr: string,
      slotStr: string,
      addToAccessList = false,
    ): void {
      const address = stripHexPrefixFast(addressStr);
      this.addAlwaysWarmAddress(address, addToAccessList);
      let slotsSet = this.alwaysWarmJournal.get(address) as Set<string>;
      if (slotsSet === NO_WARM_SLOTS) {
        slotsSet = new Set();
        this.alwaysWarmJournal.set(address, slotsSet);
      }
      const slot = stripHexPrefixFast(slotStr);
      slotsSet.add(slot);
      if (addToAccessList && this.accessList !== undefined) {
        (this.accessList.get(address) as Set<string>).add(slot);
      }
    };
  }
}
