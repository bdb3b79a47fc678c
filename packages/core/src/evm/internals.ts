/**
 * Every place Ashlar reaches past the public API of @ethereumjs/* — protected or `_`-prefixed
 * fields — goes through this module, and nowhere else. Those fields are not covered by semver:
 * a minor release may rename them and silently break call time limits (ExecutionDeadline),
 * call-frame tracing (CallFrameTracer), eth_simulateV1 (precompile moves, gas-cap lift) and the
 * idle-requests shortcut of block building. So the @ethereumjs packages are pinned to one exact
 * version (ETHEREUMJS_VERSION, the same in every package.json), and `checkEngineInternals()`
 * runs at kernel start: it reads the installed versions and probes each field on fresh objects,
 * failing with a message that names the expected and found versions. To upgrade, see
 * docs/architecture.md, "Upgrading @ethereumjs".
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BlockHeader, createBlockHeader } from '@ethereumjs/block';
import { Common, Mainnet } from '@ethereumjs/common';
import { EVM, EVMError, type EVMInterface, Message, type PrecompileFunc, createEVM } from '@ethereumjs/evm';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, createZeroAddress } from '@ethereumjs/util';
import { VM } from '@ethereumjs/vm';
import { installFastBloom } from './fastBloom.js';
import { installFastJournal } from './fastJournal.js';
import { installFastSload } from './fastSload.js';
import { FrameResult } from './frameResult.js';
import { installLeanEmit, primeEmitFeedback } from './leanEmit.js';
import { installLeanExecuteCall } from './leanExecuteCall.js';
import { installReboundEngine } from './reboundEngine.js';
import { writeWord } from './wordBytes.js';

export { writeWord } from './wordBytes.js';

/** The one @ethereumjs version whose internals this module was written against. */
export const ETHEREUMJS_VERSION = '10.1.3';

/** The @ethereumjs packages @ashlar/core depends on (all released together, same version). */
export const ETHEREUMJS_PACKAGES = [
  'block',
  'common',
  'evm',
  'mpt',
  'rlp',
  'statemanager',
  'tx',
  'util',
  'vm',
] as const;

// ---------------------------------------------------------------------------------------------
// EVM: the opcode table and the precompile table

/** The least an entry of EVM._opcodeMap has (the interpreter calls `opHandler(runState, common)`). */
export interface OpcodeEntryView {
  opcodeInfo: unknown;
  opHandler: unknown;
}

/**
 * EVM._opcodeMap, the live table the interpreter looks each opcode up in (indexed by opcode;
 * holes for undefined opcodes). Callers name the view of an entry they rely on; entries may be
 * replaced or their handler wrapped, and the EVM uses the change from its next opcode on.
 */
export function opcodeTable<E extends OpcodeEntryView = OpcodeEntryView>(evm: EVMInterface): (E | undefined)[] {
  return (evm as unknown as { _opcodeMap: (E | undefined)[] })._opcodeMap;
}

/** Replaces EVM._opcodeMap (a hardfork change rebuilds it, so put back only what you replaced). */
export function setOpcodeTable(evm: EVMInterface, table: readonly (OpcodeEntryView | undefined)[]): void {
  (evm as unknown as { _opcodeMap: readonly (OpcodeEntryView | undefined)[] })._opcodeMap = table;
}

/**
 * EVM._precompiles, the live table of addresses that run a precompile, keyed by unprefixed
 * lowercase address hex. Changing it changes which addresses run which precompile; the public
 * `evm.precompiles` getter returns this same map.
 */
export function precompileTable(evm: EVMInterface): Map<string, PrecompileFunc> {
  return (evm as unknown as { _precompiles: Map<string, PrecompileFunc> })._precompiles;
}

/** What the interpreter passes an opcode handler as `runState`, as far as `interpreter` goes. */
interface RunStateWithInterpreter {
  interpreter: unknown;
}

interface InterpreterInternals {
  _env: { contract: { balance: bigint } };
  _result: { logs: [Uint8Array, Uint8Array[], Uint8Array][] };
}

/** Balance of the contract whose code runs (Interpreter._env.contract), as SELFDESTRUCT sends it. */
export function runningContractBalance(runState: RunStateWithInterpreter): bigint {
  return (runState.interpreter as InterpreterInternals)._env.contract.balance;
}

/** The logs the running frame emitted so far (Interpreter._result.logs): [address, topics, data]. */
export function frameLogs(runState: RunStateWithInterpreter): [Uint8Array, Uint8Array[], Uint8Array][] {
  return (runState.interpreter as InterpreterInternals)._result.logs;
}

/** Message._codeAddress: whose code a DELEGATECALL / CALLCODE message runs (undefined otherwise). */
export function codeAddressOf(message: Message): Address | undefined {
  return (message as unknown as { _codeAddress?: Address })._codeAddress;
}

// ---------------------------------------------------------------------------------------------
// Common: chain parameters and the EIP parameter table

/** The chain's deposit contract (Common._chainParams.depositContractAddress), if it names one. */
export function depositContractAddress(common: Common): string | undefined {
  return (common as unknown as { _chainParams: { depositContractAddress?: string } })._chainParams
    .depositContractAddress;
}

/** Common._params, the EIP parameter table (shared between copies of a Common until reset). */
export function paramsTable(common: Common): Record<string, unknown> {
  return (common as unknown as { _params: Record<string, unknown> })._params;
}

// ---------------------------------------------------------------------------------------------
// State manager and block header caches

/**
 * The storage cache's uncommitted writes, one map per checkpoint level keyed by unprefixed
 * address hex (MerkleStateManager._caches.storage._diffCache); undefined without a storage cache.
 */
export function storageDiffLevels(stateManager: unknown): readonly ReadonlyMap<string, unknown>[] | undefined {
  const caches = (stateManager as { _caches?: { storage?: { _diffCache?: Map<string, unknown>[] } } })._caches;
  const levels = caches?.storage?._diffCache;
  return Array.isArray(levels) ? levels : undefined;
}

/** The storage-trie surface of MerkleStateManager that ChainStateManager's grouped flush drives. */
export interface StorageTrieView {
  put(key: Uint8Array, value: Uint8Array): Promise<void>;
  del(key: Uint8Array): Promise<void>;
  root(): Uint8Array;
}

interface StateManagerStorageInternals {
  _caches?: { storage?: { flush(): [string, string, Uint8Array | undefined][] } };
  _storageTries: Record<string, StorageTrieView>;
  _getStorageTrie(address: Address, account: unknown): StorageTrieView;
}

/**
 * Takes the storage cache's pending writes (MerkleStateManager._caches.storage.flush(): unprefixed
 * address hex, unprefixed slot hex, RLP of the value or undefined), or undefined without a cache.
 */
export function takeStorageWrites(sm: MerkleStateManager): [string, string, Uint8Array | undefined][] | undefined {
  return (sm as unknown as StateManagerStorageInternals)._caches?.storage?.flush();
}

/** MerkleStateManager._getStorageTrie: the account's storage trie (cached per address in `_storageTries`). */
export function storageTrieOf(sm: MerkleStateManager, address: Address, account: unknown): StorageTrieView {
  return (sm as unknown as StateManagerStorageInternals)._getStorageTrie(address, account);
}

/** MerkleStateManager.keccakFunction: the hash its storage tries are keyed by (the Common's custom Keccak or noble's). */
export function stateManagerKeccak(sm: MerkleStateManager): (bytes: Uint8Array) => Uint8Array {
  return (sm as unknown as { keccakFunction: (bytes: Uint8Array) => Uint8Array }).keccakFunction;
}

/**
 * Puts an encoded storage value straight into MerkleStateManager._caches.storage (what putStorage
 * does after unpadding the value, which would turn a one-byte 0x00 into "cleared"); false when the
 * state manager has no storage cache. A forked chain's zero that must shadow the upstream uses it.
 */
export function putCachedStorage(
  sm: MerkleStateManager,
  address: Address,
  key: Uint8Array,
  encoded: Uint8Array,
): boolean {
  const cache = (sm as unknown as { _caches?: { storage?: { put(a: Address, k: Uint8Array, v: Uint8Array): void } } })
    ._caches?.storage;
  if (!cache) return false;
  cache.put(address, key, encoded);
  return true;
}

/** Sets the hash BlockHeader.hash() answers from its cache (a header whose hash is given, not computed). */
export function setCachedHeaderHash(header: BlockHeader, hash: Uint8Array): void {
  (header as unknown as { cache: { hash?: Uint8Array } }).cache.hash = hash;
}

// ---------------------------------------------------------------------------------------------
// The startup check

/** Installed version of each @ethereumjs package (undefined when it cannot be found). */
export type InstalledVersions = Partial<Record<(typeof ETHEREUMJS_PACKAGES)[number], string | undefined>>;

/** Objects of the installed packages to probe the fields on (fresh ones in `checkEngineInternals`). */
export interface InternalsProbe {
  evm: unknown;
  common: unknown;
  stateManager: unknown;
  header: unknown;
  message: unknown;
  /** `runState.interpreter` as an opcode handler sees it. */
  interpreter: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const field = (o: unknown, name: string): unknown => (isObject(o) ? o[name] : undefined);

/** The fields this module uses that `probe` lacks (or holds in another shape), as `Class.field`. */
export function missingInternals(probe: InternalsProbe): string[] {
  const missing: string[] = [];
  const opcodes = field(probe.evm, '_opcodeMap');
  const stop = Array.isArray(opcodes) ? opcodes[0] : undefined;
  if (!isObject(stop) || typeof stop.opHandler !== 'function' || !isObject(stop.opcodeInfo)) {
    missing.push('EVM._opcodeMap');
  }
  if (!(field(probe.evm, '_precompiles') instanceof Map)) missing.push('EVM._precompiles');
  if (!isObject(field(probe.common, '_chainParams'))) missing.push('Common._chainParams');
  if (!isObject(field(probe.common, '_params'))) missing.push('Common._params');
  if (!Array.isArray(field(field(field(probe.stateManager, '_caches'), 'storage'), '_diffCache'))) {
    missing.push('MerkleStateManager._caches.storage._diffCache');
  }
  if (typeof field(field(field(probe.stateManager, '_caches'), 'storage'), 'flush') !== 'function') {
    missing.push('MerkleStateManager._caches.storage.flush');
  }
  if (typeof field(field(field(probe.stateManager, '_caches'), 'storage'), 'put') !== 'function') {
    missing.push('MerkleStateManager._caches.storage.put');
  }
  if (typeof field(probe.stateManager, '_getStorageTrie') !== 'function') {
    missing.push('MerkleStateManager._getStorageTrie');
  }
  if (!isObject(field(probe.stateManager, '_storageTries'))) missing.push('MerkleStateManager._storageTries');
  if (typeof field(probe.stateManager, 'keccakFunction') !== 'function') {
    missing.push('MerkleStateManager.keccakFunction');
  }
  if (!isObject(field(probe.header, 'cache'))) missing.push('BlockHeader.cache');
  if (!(field(probe.message, '_codeAddress') instanceof Address)) missing.push('Message._codeAddress');
  if (typeof field(field(field(probe.interpreter, '_env'), 'contract'), 'balance') !== 'bigint') {
    missing.push('Interpreter._env.contract.balance');
  }
  if (!Array.isArray(field(field(probe.interpreter, '_result'), 'logs'))) missing.push('Interpreter._result.logs');
  return missing;
}

/** `@ethereumjs/x found` for each package not at ETHEREUMJS_VERSION. */
export function versionMismatches(installed: InstalledVersions): string[] {
  return ETHEREUMJS_PACKAGES.filter((p) => installed[p] !== ETHEREUMJS_VERSION).map(
    (p) => `@ethereumjs/${p} ${installed[p] ?? '(not found)'}`,
  );
}

/** Thrown at kernel start when the installed @ethereumjs packages are not the ones Ashlar was written against. */
export class EngineInternalsError extends Error {
  override readonly name = 'EngineInternalsError';
}

/** Throws EngineInternalsError naming the expected and found versions unless versions and fields are all as expected. */
export function assertEngineInternals(installed: InstalledVersions, probe: InternalsProbe): void {
  const versions = versionMismatches(installed);
  const missing = missingInternals(probe);
  if (versions.length === 0 && missing.length === 0) return;
  const found = ETHEREUMJS_PACKAGES.map((p) => `@ethereumjs/${p} ${installed[p] ?? '(not found)'}`).join(', ');
  throw new EngineInternalsError(
    `@ashlar/core needs @ethereumjs/* ${ETHEREUMJS_VERSION} exactly (it uses their internal fields, ` +
      `see packages/core/src/evm/internals.ts); found ${found}.` +
      (versions.length > 0 ? ` Not ${ETHEREUMJS_VERSION}: ${versions.join(', ')}.` : '') +
      (missing.length > 0 ? ` Missing or changed fields: ${missing.join(', ')}.` : '') +
      ` Install the pinned versions (npm ci), or follow "Upgrading @ethereumjs" in docs/architecture.md.`,
  );
}

/** Reads the version of each installed @ethereumjs package, resolved from this module as core's imports are. */
export function installedEthereumjsVersions(): InstalledVersions {
  const out: InstalledVersions = {};
  for (const p of ETHEREUMJS_PACKAGES) out[p] = installedVersion(`@ethereumjs/${p}`);
  return out;
}

function installedVersion(name: string): string | undefined {
  // The packages export only "." (not ./package.json): walk up from the resolved entry.
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve(name));
  } catch {
    return undefined;
  }
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name) return pkg.version;
    } catch {
      // no package.json at this level
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** Fresh objects of the installed packages, with `runState.interpreter` caught while a STOP runs. */
async function freshProbe(): Promise<InternalsProbe> {
  const common = new Common({ chain: Mainnet });
  const evm = await createEVM({ common });
  let interpreter: unknown;
  const table = opcodeTable<{ opcodeInfo: unknown; opHandler: (...args: unknown[]) => unknown }>(evm);
  const stop = table[0];
  if (stop && typeof stop.opHandler === 'function') {
    const original = stop.opHandler;
    table[0] = {
      ...stop,
      opHandler: (...args: unknown[]) => {
        interpreter = (args[0] as RunStateWithInterpreter).interpreter;
        return original(...args);
      },
    };
    try {
      await evm.runCode({ code: Uint8Array.of(0x00), gasLimit: 21_000n });
    } finally {
      table[0] = stop;
    }
  }
  return {
    evm,
    common,
    stateManager: new MerkleStateManager({ caches: new Caches() }),
    header: createBlockHeader({}, { common }),
    message: new Message({ codeAddress: new Address(new Uint8Array(20)), gasLimit: 0n }),
    interpreter,
  };
}

let checked: Promise<void> | undefined;

/**
 * Checks, once per process, that the installed @ethereumjs packages are ETHEREUMJS_VERSION and
 * have every internal field this module uses; rejects with EngineInternalsError otherwise.
 */
export function checkEngineInternals(): Promise<void> {
  checked ??= (async () => assertEngineInternals(installedEthereumjsVersions(), await freshProbe()))();
  return checked;
}

// ---------------------------------------------------------------------------------------------
// Speed-ups: two hot methods of the engine answered from caches (same results)

const require_ = createRequire(import.meta.url);
let speedups: Promise<void> | undefined;

/**
 * Installs, once per process, two caches on @ethereumjs prototypes, a leaner
 * `EVM.prototype.runInterpreter` (installLeanRunInterpreter below, with a smaller frame memory),
 * a leaner `Interpreter.prototype.run` (installLeanRun) and MSTORE (installFastMstore), with
 * identical results:
 *
 * - `Common.prototype.isActivatedEIP` scans an array of the ~100 EIPs a recent hardfork
 *   activates, and the interpreter asks it several times per opcode (EIP-6800/7864 on every
 *   step): answered from a Set built once per `_activatedEIPsCache` array (the array is only
 *   ever replaced, never changed in place, so the Set cannot go stale).
 * - `Interpreter.prototype._getValidJumpDestinations` analyses a contract's whole code (jump
 *   destinations, push values, opcode entries) every time the code runs: cached per opcode
 *   table and code array (both by identity, weakly held; the state manager's code cache hands
 *   out the same array while the code is unchanged). An `eth_call` of an ERC-20 getter spent
 *   about a tenth of its time there.
 *
 * The interpreter module is not exported by @ethereumjs/evm: it is imported by file, next to the
 * package's ESM entry (the same module instance the EVM uses).
 */
export function installEngineSpeedups(): Promise<void> {
  speedups ??= (async () => {
    const proto = Common.prototype as unknown as {
      isActivatedEIP(eip: number): boolean;
      _activatedEIPsCache?: number[];
    };
    const sets = new WeakMap<number[], Set<number>>();
    // The Set of the list last asked about is kept on the Common itself: one field compare per
    // ask instead of a WeakMap lookup (the interpreter asks several times per opcode).
    type EipCommon = { _activatedEIPsCache: number[]; _ashlarEipList?: number[]; _ashlarEipSet?: Set<number> };
    proto.isActivatedEIP = function isActivatedEIP(this: EipCommon, eip: number): boolean {
      const list = this._activatedEIPsCache;
      if (this._ashlarEipList === list) return (this._ashlarEipSet as Set<number>).has(eip);
      let set = sets.get(list);
      if (set === undefined) {
        set = new Set(list);
        sets.set(list, set);
      }
      this._ashlarEipList = list;
      this._ashlarEipSet = set;
      return set.has(eip);
    };

    const entry = require_.resolve('@ethereumjs/evm');
    const esmDir = join(dirname(entry), '..', 'esm');
    const mod = (await import(pathToFileURL(join(esmDir, 'interpreter.js')).href)) as {
      Interpreter?: { prototype: Record<string, unknown> };
    };
    const ip = mod.Interpreter?.prototype;
    await installLeanRunInterpreter(esmDir, mod.Interpreter);
    await installFastMstore(esmDir);
    await installLeanRun(esmDir, mod.Interpreter);
    await installLeanExecuteCall(esmDir, entry);
    await installFastSload(esmDir);
    // Before the rebound engine, which then leaves the replaced Journal.cleanup alone.
    await installFastJournal(esmDir);
    // After the replacements above and the jump-analysis cache below: it rebinds only originals.
    if (ip && typeof ip._getValidJumpDestinations === 'function') installJumpAnalysisCache(ip);
    await installReboundEngine();
    await installFastBloom();
    generaliseMessageFields();
    // VMs and EVMs made from here on emit their events without an async function each.
    installLeanEmit(VM.prototype);
    installLeanEmit(EVM.prototype);
    primeEmitFeedback();
  })();
  return speedups;
}

/** The Messages generaliseMessageFields made, kept alive so their maps (and field types) stay. */
const primedMessages: Message[] = [];

/**
 * Makes, once, throwaway Messages that give each field of a Message every kind of value the EVM
 * later stores there (`to` an Address or not, then reassigned; `code`, `data`, `gasLimit`
 * reassigned, as `_executeCreate` and `_loadCode` do; the fields those two add). V8 tracks each
 * field's type and whether it ever changed, and code optimised while a fresh node mined value
 * transfers (every `to` an Address, nothing reassigned) relied on both: the node's first contract
 * creation changed them and threw away runCall, _executeCall and _addToBalance ("code
 * dependencies", ~45 ms of recompiling). Made before anything is optimised, the fields are
 * general from the start. No Message made here reaches an EVM.
 */
function generaliseMessageFields(): void {
  const address = createZeroAddress();
  const call = new Message({ to: address, gasLimit: 0n });
  call.code = new Uint8Array(0);
  call.isCompiled = false;
  (call as unknown as { chargeCodeAccesses: boolean }).chargeCodeAccesses = true;
  const create = new Message({ gasLimit: 0n });
  create.code = create.data;
  create.data = new Uint8Array(0);
  create.to = address;
  create.gasLimit = 1n;
  (create as unknown as { createdTargetAlive: boolean }).createdTargetAlive = false;
  // A value of another class in `to` makes its field type "any" (undefined alone does not).
  const other = new Message({ to: { bytes: new Uint8Array(20) } as unknown as Address, gasLimit: 0n });
  other.to = undefined;
  // Kept for the process's life: V8 holds a class's map transitions weakly, and once these three
  // were collected their maps (with the general field types) went too; the next Message started a
  // new chain of maps whose `to` held only Addresses again, and the first creation still threw
  // runCall, _executeCall and _addToBalance away (seen with --trace-generalization in W1 and W4).
  primedMessages.push(call, create, other);
}

/** The jump-destination cache described above installEngineSpeedups. */
function installJumpAnalysisCache(ip: Record<string, unknown>): void {
  const analyse = ip._getValidJumpDestinations as (this: unknown, code: Uint8Array) => unknown;
  const byTable = new WeakMap<object, WeakMap<Uint8Array, unknown>>();
  ip._getValidJumpDestinations = function cachedJumpDestinations(
    this: { _evm: { _opcodeMap: object } },
    code: Uint8Array,
  ): unknown {
    const table = this._evm._opcodeMap;
    let byCode = byTable.get(table);
    if (byCode === undefined) {
      byCode = new WeakMap();
      byTable.set(table, byCode);
    }
    let out = byCode.get(code);
    if (out === undefined) {
      out = analyse.call(this, code);
      byCode.set(code, out);
    }
    return out;
  };
}

// ---------------------------------------------------------------------------------------------
// EVM.prototype.runInterpreter without the merged runState

interface InterpreterLike {
  _result: { selfdestruct?: unknown; createdAddresses?: unknown; logs?: unknown; returnValue?: Uint8Array };
  _env: Record<string, unknown>;
  run(
    code: Uint8Array,
    opts: unknown,
  ): Promise<{
    runState: { gasLeft: bigint; gasRefund: bigint; stateGasSpilled?: bigint } & Record<string, unknown>;
    exceptionError?: { error: string };
  }>;
}
type InterpreterCtor = new (...args: unknown[]) => InterpreterLike;

interface EvmSelf {
  stateManager: { getAccount(a: Address): Promise<Account | undefined> };
  blockchain: unknown;
  journal: unknown;
  performanceLogger: unknown;
  _optsCached: { profiler?: unknown };
  _tx: { gasPrice: bigint; origin?: Address };
  _block?: unknown;
}

/**
 * @ethereumjs/evm 10.1.3's `runInterpreter` with one change: the result's `runState` (the
 * interpreter's run state merged with the frame's result and environment, three object spreads
 * of 20-odd properties each) is built when first read instead of on every message frame. Nothing
 * in the engine or in Ashlar reads it (the type has it optional); it cost about 5% of an
 * `eth_call` of an ERC-20 getter (CPU profile, line ticks). Everything else is the original,
 * step for step (the interpreter is made by `leanInterpreterMaker`, with a smaller memory).
 */
async function installLeanRunInterpreter(esmDir: string, Interpreter: unknown): Promise<void> {
  const evmMod = (await import(pathToFileURL(join(esmDir, 'evm.js')).href)) as {
    EVM?: { prototype: Record<string, unknown> };
    defaultBlock?: () => unknown;
  };
  const ep = evmMod.EVM?.prototype;
  const defaultBlock = evmMod.defaultBlock;
  if (!ep || typeof ep.runInterpreter !== 'function' || typeof defaultBlock !== 'function') return;
  if (typeof Interpreter !== 'function') return;
  const Ctor = Interpreter as InterpreterCtor;
  const makeInterpreter = await leanInterpreterMaker(esmDir, Ctor);
  const REVERT = EVMError.errorMessages.REVERT;
  const INVALID_EOF = EVMError.errorMessages.INVALID_EOF_FORMAT;
  ep.runInterpreter = async function leanRunInterpreter(
    this: EvmSelf,
    // biome-ignore lint/suspicious/noExplicitAny: the engine's Message, read field by field as the original does
    message: any,
    opts: { initialLogs?: unknown[] } = {},
  ) {
    let contract = await this.stateManager.getAccount(message.to ?? createZeroAddress());
    if (!contract) contract = new Account();
    const env = {
      address: message.to ?? createZeroAddress(),
      caller: message.caller ?? createZeroAddress(),
      callData: message.data ?? Uint8Array.from([0]),
      callValue: message.value ?? 0n,
      code: message.code,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: this._tx.gasPrice,
      origin: this._tx.origin ?? message.caller ?? createZeroAddress(),
      block: this._block ?? defaultBlock(),
      contract,
      codeAddress: message.codeAddress,
      gasRefund: message.gasRefund,
      chargeCodeAccesses: message.chargeCodeAccesses,
      blobVersionedHashes: message.blobVersionedHashes ?? [],
      accessWitness: message.accessWitness,
      createdAddresses: message.createdAddresses,
      initialLogs: opts.initialLogs,
    };
    const interpreter = makeInterpreter(
      this,
      this.stateManager,
      this.blockchain,
      env,
      message.gasLimit,
      this.journal,
      this.performanceLogger,
      this._optsCached.profiler,
    );
    if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct;
    if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses;
    const interpreterRes = await interpreter.run(message.code, opts);
    let result = interpreter._result;
    let gasUsed = (message.gasLimit as bigint) - interpreterRes.runState.gasLeft;
    if (interpreterRes.exceptionError) {
      if (interpreterRes.exceptionError.error !== REVERT && interpreterRes.exceptionError.error !== INVALID_EOF) {
        gasUsed = message.gasLimit;
      }
      result = { ...result, logs: [], selfdestruct: new Map(), createdAddresses: new Set() };
    }
    message.accessWitness?.commit();
    const runState = interpreterRes.runState;
    const frameResult = result;
    const merged = () => ({ ...runState, ...frameResult, ...interpreter._env });
    const returnValue = result.returnValue ?? new Uint8Array(0);
    // The original's `{ ...result, … }` field for field (same values; createdAddresses undefined
    // where the frame has none), as a FrameResult: one hidden class for every frame's result.
    return new FrameResult(
      result.logs as unknown[] | undefined,
      returnValue,
      result.selfdestruct,
      result.createdAddresses,
      interpreterRes.exceptionError,
      runState?.gasLeft,
      gasUsed,
      runState.gasRefund,
      runState.stateGasSpilled,
      merged,
    );
  };
}

// ---------------------------------------------------------------------------------------------
// Interpreter construction with a memory that starts small

/** The first store of a frame's memory (Solidity frames use a few hundred bytes). */
const LEAN_MEMORY_START = 512;

/**
 * @ethereumjs/evm 10.1.3's `Memory` (methods `extend`, `write`, `read`; field `_store`, the
 * bytes, zero past what was written, at least as long as the highest extension rounded to
 * words) with a store that starts at 512 bytes and doubles, instead of 8 KiB grown 8 KiB at a
 * time: every message frame allocates one, and those 8 KiB (zeroed, outside the JS heap) were
 * about a twentieth of an ERC-20 getter's eth_call, and much of the garbage collection.
 */
export class LeanMemory {
  _store: Uint8Array = EMPTY_STORE;

  extend(offset: number, size: number): void {
    if (size === 0) return;
    const rem = (offset + size) % 32;
    const newSize = rem === 0 ? offset + size : offset + size + 32 - rem;
    const old = this._store;
    if (newSize <= old.length) return;
    let cap = old.length === 0 ? LEAN_MEMORY_START : old.length * 2;
    if (cap < newSize) cap = newSize;
    const next = new Uint8Array(cap);
    next.set(old);
    this._store = next;
  }

  write(offset: number, size: number, value: Uint8Array): void {
    if (size === 0) return;
    this.extend(offset, size);
    if (value.length !== size) throw new Error('Invalid value size');
    if (offset + size > this._store.length) throw new Error('Value exceeds memory capacity');
    this._store.set(value, offset);
  }

  read(offset: number, size: number, avoidCopy?: boolean): Uint8Array {
    this.extend(offset, size);
    const loaded = this._store.subarray(offset, offset + size);
    if (avoidCopy === true) return loaded;
    const out = new Uint8Array(size);
    out.set(loaded);
    return out;
  }
}

const EMPTY_STORE = new Uint8Array(0);

type MakeInterpreter = (
  evm: unknown,
  stateManager: unknown,
  blockchain: unknown,
  env: Record<string, unknown> & { gasRefund?: unknown; initialLogs?: unknown[] },
  gasLeft: bigint,
  journal: unknown,
  performanceLogger: unknown,
  profilerOpts: unknown,
) => InterpreterLike;

const ownKeys = (o: unknown): string => Object.keys(o as object).join(',');

/**
 * Makes interpreters as @ethereumjs/evm 10.1.3's `Interpreter` constructor does, field for
 * field, except that the memory is a LeanMemory. The first frame is made both ways and the
 * two compared (fields of the interpreter, its run state and its result, in order): on any
 * difference, or on a proof-of-authority chain (whose constructor checks more), every frame uses
 * the engine's own constructor.
 */
async function leanInterpreterMaker(esmDir: string, Ctor: InterpreterCtor): Promise<MakeInterpreter> {
  const stackMod = (await import(pathToFileURL(join(esmDir, 'stack.js')).href)) as {
    Stack?: new () => unknown;
  };
  const Stack = stackMod.Stack;
  const real: MakeInterpreter = (...args) => new Ctor(...args);
  if (typeof Stack !== 'function') return real;
  let verdict: boolean | undefined;
  return (evm, stateManager, blockchain, env, gasLeft, journal, performanceLogger, profilerOpts) => {
    const common = (evm as { common: { consensusType(): string } }).common;
    if (verdict === false || common.consensusType() === 'poa') {
      return real(evm, stateManager, blockchain, env, gasLeft, journal, performanceLogger, profilerOpts);
    }
    const ip = Object.create(Ctor.prototype) as Record<string, unknown>;
    ip.opDebuggers = {};
    ip._evm = evm;
    ip._stateManager = stateManager;
    ip.common = common;
    ip._runState = {
      programCounter: 0,
      opCode: 0xfe,
      memory: new LeanMemory(),
      memoryWordCount: 0n,
      highestMemCost: 0n,
      stack: new Stack(),
      code: new Uint8Array(0),
      validJumps: new Uint8Array(0),
      cachedPushes: {},
      stateManager,
      blockchain,
      env,
      shouldDoJumpAnalysis: true,
      interpreter: ip,
      gasRefund: env.gasRefund,
      gasLeft,
      stateGasSpilled: 0n,
      returnBytes: new Uint8Array(0),
    };
    ip.journal = journal;
    ip._env = env;
    ip._result = { logs: env.initialLogs ? [...env.initialLogs] : [], returnValue: undefined, selfdestruct: new Map() };
    ip.profilerOpts = profilerOpts;
    ip.performanceLogger = performanceLogger;
    if (verdict === undefined) {
      const ref = real(
        evm,
        stateManager,
        blockchain,
        env,
        gasLeft,
        journal,
        performanceLogger,
        profilerOpts,
      ) as unknown as Record<string, unknown>;
      const memory = (ref._runState as { memory?: Record<string, unknown> } | undefined)?.memory;
      verdict =
        ownKeys(ref) === ownKeys(ip) &&
        ownKeys(ref._runState) === ownKeys(ip._runState) &&
        ownKeys(ref._result) === ownKeys(ip._result) &&
        memory !== undefined &&
        ownKeys(memory) === '_store' &&
        ['extend', 'write', 'read'].every((m) => typeof memory[m] === 'function');
      if (!verdict) return ref as unknown as InterpreterLike;
    }
    return ip as unknown as InterpreterLike;
  };
}

// ---------------------------------------------------------------------------------------------
// MSTORE without the byte arrays

/**
 * Replaces MSTORE in @ethereumjs/evm's default handler table (opcodes/functions.js `handlers`,
 * copied into each EVM's opcode table when the EVM is made or changes hardfork): the original
 * turns the word into a hex string, then a byte array, then a 32-byte copy of it, then writes
 * that; this writes the hex digits straight into memory. Same memory extension, same bytes, same
 * stack errors (popN). Solidity runs several MSTOREs per call frame.
 */
async function installFastMstore(esmDir: string): Promise<void> {
  const mod = (await import(pathToFileURL(join(esmDir, 'opcodes', 'functions.js')).href)) as {
    handlers?: Map<number, (runState: unknown, common: unknown) => unknown>;
  };
  const handlers = mod.handlers;
  if (!(handlers instanceof Map) || typeof handlers.get(0x52) !== 'function') return;
  handlers.set(0x52, function mstore(runState: unknown): void {
    const rs = runState as {
      stack: { popN(n: number): bigint[] };
      memory: { extend(offset: number, size: number): void; _store: Uint8Array };
    };
    // Read by index: array destructuring is the iterator protocol in bytecode (MSTORE runs often).
    const popped = rs.stack.popN(2) as [bigint, bigint];
    const offset = popped[0];
    const word = popped[1];
    const at = Number(offset);
    const memory = rs.memory;
    memory.extend(at, 32);
    writeWord(memory._store, at, word);
  });
}

// ---------------------------------------------------------------------------------------------
// Interpreter.run with plain opcodes stepped without a promise each

/** The interpreter's fields `run` reads, as far as the loop goes. */
interface RunSelf {
  common: { isActivatedEIP(eip: number): boolean };
  profilerOpts?: { enabled?: boolean };
  performanceLogger: { hasTimer(): boolean; pauseTimer(): unknown; startTimer(name: string): unknown };
  _evm: { events: { listenerCount(name: string): number }; DEBUG: boolean };
  _env: { chargeCodeAccesses?: boolean };
  _runState: {
    programCounter: number;
    code: Uint8Array;
    opCode: number;
    gasLeft: bigint;
    env: { chargeCodeAccesses?: boolean; accessWitness?: { commit(): void; revert(): void } };
    eip8037BurnLeftoverAfterCreateHaltOntoAlive?: boolean;
    validJumps: unknown;
    cachedPushes: unknown;
    shouldDoJumpAnalysis: boolean;
    interpreter: { getAddress(): unknown; finish?: unknown; _result: { returnValue?: Uint8Array } };
    stack: { popN(n: number): bigint[] };
    memory: { read(offset: number, size: number): Uint8Array };
    stateManager: { checkChunkWitnessPresent(contract: unknown, pc: number): Promise<boolean> };
  };
  _getValidJumpDestinations(code: Uint8Array): { jumps: unknown; pushes: unknown; opcodesCached: OpStep[] };
  lookupOpInfo(op: number): OpStep;
  runStep(op: OpStep | undefined): Promise<void>;
  useGas(amount: bigint, context: unknown): void;
}

interface OpStep {
  opcodeInfo: { code: number; feeBigInt: bigint; dynamicGas: boolean; isAsync: boolean; isInvalid: boolean };
  opHandler: (runState: unknown, common: unknown) => unknown;
  gasHandler?: GasHandler;
}

/**
 * The STOP and RETURN handlers and `Interpreter.prototype.finish` of @ethereumjs/evm 10.1.3 (each
 * only if its source has the SHA-256 below), which leanRun runs without the throw they end a frame
 * with: a thrown STOP unwinding into the loop's catch was ~3% of an eth_call of a getter.
 */
async function haltingOps(
  esmDir: string,
  ip: Record<string, unknown>,
): Promise<{ stopOp?: unknown; returnOp?: unknown; finish?: unknown }> {
  const mod = (await import(pathToFileURL(join(esmDir, 'opcodes', 'functions.js')).href)) as {
    handlers?: Map<number, unknown>;
  };
  const sha = (f: unknown) => createHash('sha256').update(String(f)).digest('hex');
  const stop = mod.handlers?.get(0x00);
  const ret = mod.handlers?.get(0xf3);
  const finish = ip.finish;
  if (
    sha(stop) !== '363e12c79003c1e757c6d88e56aed9e303afe6feb4b2ecf3864ca5f1b105c53c' ||
    sha(ret) !== '9265557f78de67112ecb44918d610502209b612132c38ca335f74843b8461466' ||
    sha(finish) !== 'dd8051dfc15986368a8b8ea85a286c5801015cdfa259ca09c363a15cca8c63b9'
  ) {
    return {};
  }
  return { stopOp: stop, returnOp: ret, finish };
}

/** An opcode's dynamic gas: the base fee in, the fee with the dynamic part out (async in 10.1.3). */
type GasHandler = (runState: unknown, gas: bigint, common: unknown) => Promise<bigint> | bigint;

/**
 * @ethereumjs/evm 10.1.3's `Interpreter.prototype.run` for legacy (non-EOF) code, with one change:
 * opcodes are stepped inline, exactly as `runStep` steps them, instead of through the async
 * `runStep` (a promise, an await and an argument array per opcode: most of the garbage an
 * eth_call makes). One with static gas and a synchronous handler (PUSH, DUP, SWAP, arithmetic,
 * JUMP…, about half of all steps) runs with no await at all; one with dynamic gas (MLOAD, MSTORE,
 * SLOAD, SSTORE, KECCAK256, LOG, CALL…) awaits its gas handler, and an async handler (the call
 * time limit makes JUMP so to pause) is awaited. `runStep` steps every opcode while anything
 * listens to `step` (tracers), in DEBUG mode, with the profiler on, or under EIP-6800/7864 code
 * chunk charging. EOF code runs the original `run`.
 */
async function installLeanRun(esmDir: string, Interpreter: unknown): Promise<void> {
  const ip = (Interpreter as { prototype?: Record<string, unknown> } | undefined)?.prototype;
  if (!ip || typeof ip.run !== 'function' || typeof ip.runStep !== 'function') return;
  const eip7928 = (await import(pathToFileURL(join(esmDir, 'opcodes', 'EIP7928.js')).href)) as {
    consumeEip7928PostTargetCallOog?: (runState: unknown) => void;
  };
  const consumePostTargetCallOog = eip7928.consumeEip7928PostTargetCallOog;
  if (typeof consumePostTargetCallOog !== 'function') return;
  const originalRun = ip.run as (this: RunSelf, code: Uint8Array, opts?: { pc?: number }) => Promise<unknown>;
  const { stopOp, returnOp, finish } = await haltingOps(esmDir, ip);
  const STOP = EVMError.errorMessages.STOP;
  const INVALID_OPCODE = EVMError.errorMessages.INVALID_OPCODE;
  const OUT_OF_GAS = EVMError.errorMessages.OUT_OF_GAS;
  ip.run = async function leanRun(this: RunSelf, code: Uint8Array, opts: { pc?: number } = {}) {
    const common = this.common;
    // EOF code (0xEF first, EIP-3540 on) and the profiler take the original path.
    if ((common.isActivatedEIP(3540) && code[0] === 0xef) || this.profilerOpts?.enabled === true) {
      return originalRun.call(this, code, opts);
    }
    const rs = this._runState;
    rs.code = code;
    rs.programCounter = opts.pc ?? rs.programCounter;
    const pc = rs.programCounter;
    if (pc !== 0 && (pc < 0 || pc >= rs.code.length)) {
      throw new Error('Internal error: program counter not in range');
    }
    const evm = this._evm;
    const stateless =
      (common.isActivatedEIP(6800) || common.isActivatedEIP(7864)) && this._env.chargeCodeAccesses === true;
    // Whether each opcode goes through runStep. Asked again only after an await: a `step`
    // listener (a tracer) or DEBUG can only change while this loop waits, and asking eventemitter3
    // for every opcode was ~2% of a transfer's EVM time.
    const mustStep = () => stateless || evm.DEBUG || evm.events.listenerCount('step') > 0;
    let stepped = mustStep();
    let err: unknown;
    let cachedOpcodes: OpStep[] | undefined;
    let doJumpAnalysis = true;
    while (rs.programCounter < rs.code.length) {
      const programCounter = rs.programCounter;
      let opCode: number;
      let opCodeObj: OpStep | undefined;
      if (doJumpAnalysis) {
        opCode = rs.code[programCounter] as number;
        if (opCode === 0x56 || opCode === 0x57 || opCode === 0x5e) {
          const { jumps, pushes, opcodesCached } = this._getValidJumpDestinations(rs.code);
          rs.validJumps = jumps;
          rs.cachedPushes = pushes;
          rs.shouldDoJumpAnalysis = false;
          cachedOpcodes = opcodesCached;
          doJumpAnalysis = false;
        }
      } else {
        opCodeObj = (cachedOpcodes as OpStep[])[programCounter] as OpStep;
        opCode = opCodeObj.opcodeInfo.code;
      }
      if (opCode === 0xfe && common.isActivatedEIP(7864) && rs.env.chargeCodeAccesses === true) {
        const contract = rs.interpreter.getAddress();
        if (!(await rs.stateManager.checkChunkWitnessPresent(contract, programCounter))) {
          throw Error(`Invalid witness with missing codeChunk for pc=${programCounter}`);
        }
        stepped = mustStep();
      }
      rs.opCode = opCode;
      try {
        const entry = opCodeObj ?? this.lookupOpInfo(opCode);
        const info = entry.opcodeInfo;
        if (stepped) {
          await this.runStep(opCodeObj);
          stepped = mustStep();
        } else if (!info.dynamicGas && !info.isAsync) {
          // runStep's steps for such an op: invalid check, base fee, pc, EIP-7928 pending OOG, handler.
          if (info.isInvalid) throw new EVMError(INVALID_OPCODE);
          this.useGas(info.feeBigInt, info);
          rs.programCounter++;
          consumePostTargetCallOog(rs);
          if (entry.opHandler === stopOp) {
            // STOP's handler throws STOP for the catch below to end the loop: the same, unthrown.
            rs.env.accessWitness?.revert();
            break;
          }
          entry.opHandler(rs, common);
          rs.env.accessWitness?.commit();
        } else {
          // runStep's steps without a listener, stateless charging or the profiler: the dynamic
          // gas (awaited unless a figure, as fastSload's SLOAD gives), invalid check, gas, pc, EIP-7928
          // pending OOG, the handler (awaited when async). Saves runStep's own promise per op.
          let gas = info.feeBigInt;
          if (info.dynamicGas) {
            const charged = (entry.gasHandler as GasHandler)(rs, gas, common);
            if (typeof charged === 'bigint') gas = charged;
            else {
              gas = await charged;
              stepped = mustStep();
            }
          }
          if (info.isInvalid) throw new EVMError(INVALID_OPCODE);
          this.useGas(gas, info);
          rs.programCounter++;
          consumePostTargetCallOog(rs);
          if (info.isAsync) {
            await entry.opHandler(rs, common);
            stepped = mustStep();
          } else if (entry.opHandler === returnOp && rs.interpreter.finish === finish) {
            // RETURN's handler, then `finish` (which sets the return value and throws STOP), unthrown.
            const popped = rs.stack.popN(2) as [bigint, bigint];
            const offset = popped[0];
            const length = popped[1];
            let returnData: Uint8Array = new Uint8Array(0);
            if (length !== 0n) returnData = rs.memory.read(Number(offset), Number(length));
            rs.interpreter._result.returnValue = returnData;
            rs.env.accessWitness?.revert();
            break;
          } else entry.opHandler(rs, common);
          rs.env.accessWitness?.commit();
        }
      } catch (e) {
        rs.env.accessWitness?.revert();
        if (
          !(
            typeof e === 'object' &&
            e !== null &&
            'errorType' in e &&
            (e as { errorType: unknown }).errorType === 'EVMError'
          )
        ) {
          throw e;
        }
        if ((e as { error?: string }).error !== STOP) err = e;
        break;
      }
    }
    if (err === undefined && rs.eip8037BurnLeftoverAfterCreateHaltOntoAlive === true && rs.gasLeft > 0n) {
      rs.gasLeft = 0n;
      err = new EVMError(OUT_OF_GAS);
    }
    return { runState: rs, exceptionError: err };
  };
}
