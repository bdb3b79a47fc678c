/**
 * `runTx` of @ethereumjs/vm 10.1.3 (dist/esm/runTx.js: runTx, _runTx, updateMinerBalance,
 * processSelfdestructs, txLogsBloom, generateTxReceipt, _errorMsg) written out for the
 * transactions Ashlar runs all the time, with the same state operations in the same order, the
 * same results, events and error messages; everything else goes to the stock `runTx`.
 *
 * Why: a fresh node mining value transfers spent more TurboFan time on `_runTx` than on any other
 * function (~56 ms for `_runTx`, 13 `runTx`, 11 `updateMinerBalance`, 9 `getIntrinsicGas` in its
 * first thousand transfers), and per transaction it ran code Ashlar never needs: ~90
 * `isActivatedEIP` asks, bookkeeping of future forks (EIP-7864/8037/7928/7778/2780/7708/8246),
 * profiler and debug branches, the intrinsic gas computed twice (`computeIntrinsicGasDimensions8037`),
 * an awaited async receipt builder, and a spread of the results into the `afterTx` event (a slow
 * runtime path: the literal already has a key). Here the rules of the Common in force are
 * decided once per Common and parameter set (`rulesOf`), and the code is straight-line.
 *
 * The lean path runs when all of these hold (`leanEligible`), else stock `runTx` runs:
 * - runTx.js is byte for byte the file this mirrors (SHA-256 below);
 * - a block is given; no `reportAccessList`, `reportPreimages`; VM not in DEBUG, no profiler;
 * - the transaction is legacy, EIP-2930 or EIP-1559 (no blobs, no EIP-7702 authorizations),
 *   with its type's EIPs active;
 * - the VM's Common is at Byzantium or later (before it receipts carry the state root), not
 *   proof of authority (the miner is the clique signer), with none of the EIPs above active.
 * `skipBalance`, `skipNonce`, `skipBlockGasLimitValidation` and `skipHardForkValidation` are
 * honoured as stock does (the eth_call path passes the first two).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Block, type BlockHeader, createBlockHeader } from '@ethereumjs/block';
import { type Common, ConsensusType, Hardfork } from '@ethereumjs/common';
import { getCalldataFloorGas } from '@ethereumjs/tx';
import {
  Account,
  Address,
  EthereumJSErrorWithoutCode,
  KECCAK256_NULL,
  bytesToUnprefixedHex,
  equalsBytes,
  hexToBytes,
} from '@ethereumjs/util';
import { Bloom, type RunTxOpts, type RunTxResult, type VM, runTx } from '@ethereumjs/vm';
import { SETTLED } from '../util/settled.js';
import { cachedAccount } from './cachedAccount.js';
import { warmPrecompiles } from './fastSload.js';
import { runPlainCall } from './plainCall.js';
import type { EVM } from '@ethereumjs/evm';

/** SHA-256 of @ethereumjs/vm 10.1.3's dist/esm/runTx.js, the text mirrored here. */
export const RUN_TX_FILE_SHA256 = 'e64717c0ff4046a6fe3496e41c3a6e53c24a7f7bd74a63c8b0ddf8ab390e3373';

/** EIPs whose bookkeeping the lean path does not carry: any of them active means stock. */
const FOREIGN_EIPS = [7864, 6800, 8037, 7928, 7778, 2780, 7708, 8246] as const;

const DELEGATION_7702_FLAG = Uint8Array.of(0xef, 0x01, 0x00);

/** What a result without a selfdestruct map reads as (never written). */
const NO_SELFDESTRUCTS: ReadonlyMap<string, unknown> = new Map();

// ---------------------------------------------------------------------------------------------
// What the lean path reads of @ethereumjs internals (fields of 10.1.3's classes)

interface LeanJournal {
  touched: Set<string>;
  alwaysWarmJournal: Map<string, Set<string>>;
  accessList?: Map<string, Set<string>>;
  preimages?: Map<string, Uint8Array>;
  cleanup(): Promise<void>;
  cleanJournal(): void;
  checkpoint(): Promise<void>;
  commit(): Promise<void>;
  revert(): Promise<void>;
  putAccount(address: Address, account: Account | undefined): Promise<void>;
  deleteAccount(address: Address): Promise<void>;
  addAlwaysWarmAddress(address: string, addToAccessList?: boolean): void;
  addAlwaysWarmSlot(address: string, slot: string, addToAccessList?: boolean): void;
}

interface LeanEvm {
  journal: LeanJournal;
  precompiles: Map<string, unknown>;
  stateManager: { originalStorageCache: { clear(): void } };
  eip7928CallPostTargetOog: boolean;
  createTxTargetAlive: boolean;
  eip2780PrepOog?: boolean;
  runCall(opts: Record<string, unknown>): Promise<RunTxResult>;
}

interface LeanVm {
  common: Common;
  evm: LeanEvm;
  DEBUG: boolean;
  _opts: { profilerOpts?: { reportAfterTx?: boolean } };
  stateManager: {
    getAccount(address: Address): Promise<Account | undefined>;
    getCode(address: Address): Promise<Uint8Array>;
    originalStorageCache: { clear(): void };
  };
  _emit(topic: string, data: unknown): Promise<void>;
  errorStr(): string;
}

/** A transaction as the lean path reads it (legacy, 2930 or 1559). */
interface LeanTx {
  type: number;
  common: Common;
  gasLimit: bigint;
  nonce: bigint;
  value: bigint;
  data: Uint8Array;
  to?: Address;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  accessList?: [Uint8Array, Uint8Array[]][];
  getSenderAddress(): Address;
  getIntrinsicGas(): bigint;
  getUpfrontCost(baseFee: bigint): bigint;
  getEffectivePriorityFee(baseFee: bigint): bigint;
  errorStr?(): string;
}

type LeanResult = RunTxResult & { createdAddress?: Address };

// ---------------------------------------------------------------------------------------------
// Pinning and per-Common rules

let pinned: boolean | undefined;
/** The journal's pinned `addAlwaysWarmAddress` (the precompile loop writes its map as it does). */

/** Whether the installed runTx.js and journal are the ones mirrored (decided once). */
function isPinned(): boolean {
  if (pinned !== undefined) return pinned;
  pinned = false;
  try {
    const require_ = createRequire(import.meta.url);
    const entry = require_.resolve('@ethereumjs/vm');
    const file = join(dirname(entry), '..', 'esm', 'runTx.js');
    if (!existsSync(file)) return false;
    const text = readFileSync(file, 'utf8');
    if (createHash('sha256').update(text).digest('hex') !== RUN_TX_FILE_SHA256) return false;
    pinned = true;
  } catch {
    pinned = false;
  }
  return pinned;
}

/** What runTx asks the VM's Common, answered once per Common and parameter set. */
export interface TxRules {
  /** Byzantium or later, not proof of authority, none of FOREIGN_EIPS active. */
  lean: boolean;
  eip2718: boolean;
  eip2930: boolean;
  eip1559: boolean;
  eip2929: boolean;
  eip3651: boolean;
  eip6780: boolean;
  eip7623: boolean;
  eip7702: boolean;
  eip1153: boolean;
  maxRefundQuotient: bigint;
}

type CommonInternals = { _paramsCache: object };
const rulesByCommon = new WeakMap<Common, { params: object; rules: TxRules }>();

/**
 * The rules of `common` as it stands. Keyed by the Common and its `_paramsCache`, which
 * @ethereumjs/common 10.1.3 rebuilds (a new object) on every setHardfork, setEIPs, updateParams
 * and resetParams, the only ways its hardfork, EIPs or parameters change.
 */
export function rulesOf(common: Common): TxRules {
  const params = (common as unknown as CommonInternals)._paramsCache;
  const known = rulesByCommon.get(common);
  if (known !== undefined && known.params === params) return known.rules;
  const on = (eip: number) => common.isActivatedEIP(eip);
  const rules: TxRules = {
    lean:
      common.gteHardfork(Hardfork.Byzantium) &&
      common.consensusType() !== ConsensusType.ProofOfAuthority &&
      !FOREIGN_EIPS.some(on),
    eip2718: on(2718),
    eip2930: on(2930),
    eip1559: on(1559),
    eip2929: on(2929),
    eip3651: on(3651),
    eip6780: on(6780),
    eip7623: on(7623),
    eip7702: on(7702),
    eip1153: on(1153),
    maxRefundQuotient: common.param('maxRefundQuotient'),
  };
  rulesByCommon.set(common, { params, rules });
  return rules;
}

/** Whether `opts` on `vm` take the lean path (see the file comment). */
export function leanEligible(vm: VM, opts: RunTxOpts): boolean {
  const v = vm as unknown as LeanVm;
  if (opts.block === undefined || opts.reportAccessList === true || opts.reportPreimages === true) return false;
  if (v.DEBUG || v._opts.profilerOpts?.reportAfterTx === true) return false;
  const tx = opts.tx as unknown as LeanTx;
  const type = tx.type;
  if (type !== 0 && type !== 1 && type !== 2) return false;
  const rules = rulesOf(v.common);
  if (!rules.lean) return false;
  if (type !== 0 && !(rules.eip2718 && rules.eip2930 && (type === 1 || rules.eip1559))) return false;
  return isPinned();
}

// ---------------------------------------------------------------------------------------------
// The lean runTx

let defaultHeader: BlockHeader | undefined;
/** runTx.js's DEFAULT_HEADER (a default block header), for the fields a block's header lacks. */
function defaults(): BlockHeader {
  defaultHeader ??= createBlockHeader();
  return defaultHeader;
}

/** Same signature and results as @ethereumjs/vm's `runTx`; the lean path when `leanEligible`. */
export function runTxLean(vm: VM, opts: RunTxOpts): Promise<RunTxResult> {
  if (!leanEligible(vm, opts)) return runTx(vm, opts);
  if (!bloomPrimed) primeLogsBloom(vm.common);
  return leanRunTx(vm as unknown as LeanVm, opts);
}

let bloomPrimed = false;
/**
 * Runs logsBloom once on a throwaway log, so its loop has type feedback before mining starts: a
 * fresh node mines value transfers (no logs) first, and TurboFan inlines logsBloom into
 * leanRunTx with feedback from those alone; the first token transfer's logs then threw the
 * optimised leanRunTx away. Done at the first lean transaction, after Ashlar's Bloom.add is in place.
 */
function primeLogsBloom(common: Common): void {
  bloomPrimed = true;
  logsBloom([[new Uint8Array(20), [new Uint8Array(32)], new Uint8Array(0)]], common);
}

/** runTx, then _runTx, for the eligible cases (stock's order of state operations). */
async function leanRunTx(vm: LeanVm, opts: RunTxOpts): Promise<RunTxResult> {
  const tx = opts.tx as unknown as LeanTx;
  const block = opts.block as Block;
  const rules = rulesOf(vm.common);
  const typed = tx.type !== 0;
  if (opts.skipHardForkValidation !== true) syncHardfork(vm, block, tx);
  if (opts.skipBlockGasLimitValidation !== true && block.header.gasLimit < tx.gasLimit) {
    fail('tx has a higher gas limit than the block', vm, block, tx);
  }
  const evm = vm.evm;
  const journal = evm.journal;
  // Ensure we start with a clear warmed accounts Map
  // The journal's steps answer SETTLED when they did the work at once (in memory, inside the
  // block: cleanup, and the state manager's answers handed back by checkpoint, commit and
  // putAccount): awaited only when they did not.
  let step = journal.cleanup();
  if (step !== SETTLED) await step;
  step = journal.checkpoint();
  if (step !== SETTLED) await step;
  if (typed) warmAccessList(journal, tx);
  try {
    // ---- _runTx
    const state = vm.stateManager;
    if (tx.value < 0n) throw EthereumJSErrorWithoutCode(`value field cannot be negative, received ${tx.value}`);
    // Listeners that ran synchronously answer SETTLED (leanEmit): no turn of the microtask queue.
    step = vm._emit('beforeTx', tx);
    if (step !== SETTLED) await step;
    const caller = tx.getSenderAddress();
    const header = block.header;
    if (rules.eip2929) {
      // The precompiles (the keys of the map, in one copy when it can: warmPrecompiles), the
      // sender, the recipient, the coinbase.
      warmPrecompiles(journal, evm.precompiles);
      journal.addAlwaysWarmAddress(caller.toString());
      if (tx.to !== undefined) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(tx.to.bytes));
      if (rules.eip3651) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(header.coinbase.bytes));
    }
    // computeIntrinsicGasDimensions8037 answers (getIntrinsicGas(), 0) without EIP-8037.
    const intrinsicGas = tx.getIntrinsicGas();
    // EIP-7623's floor of a transaction with no data and no access list is txGas (EIP-2780, which
    // adds to it, is not on the lean path), never above its intrinsic gas: it can raise neither
    // the minimum gas limit nor the gas spent. Skipped, getCalldataFloorGas (Common lookups per
    // call) was one more function TurboFan compiled in a fresh node's first value transfers.
    const floorCost =
      tx.data.length === 0 && (tx.accessList === undefined || tx.accessList.length === 0)
        ? 0n
        : getCalldataFloorGas(tx as never, caller);
    evm.eip7928CallPostTargetOog = false;
    let gasLimit = tx.gasLimit;
    const minGasLimit = intrinsicGas > floorCost ? intrinsicGas : floorCost;
    if (gasLimit < minGasLimit) {
      fail(
        `INTRINSIC_GAS_TOO_LOW: tx gas limit ${Number(gasLimit)} is lower than the minimum gas limit of ${Number(minGasLimit)}`,
        vm,
        block,
        tx,
      );
    }
    gasLimit -= intrinsicGas;
    const baseFeePerGas = header.baseFeePerGas ?? (defaults().baseFeePerGas as bigint);
    if (rules.eip1559) checkFeeCap(vm, block, tx, baseFeePerGas);
    const cachedFrom = cachedAccount(state, caller);
    let fromAccount = (cachedFrom !== undefined ? cachedFrom : await state.getAccount(caller)) ?? new Account();
    const nonce = fromAccount.nonce;
    const balance = fromAccount.balance;
    if (!equalsBytes(fromAccount.codeHash, KECCAK256_NULL)) await checkSenderCode(vm, rules, block, tx, caller);
    const upFrontCost = tx.getUpfrontCost(baseFeePerGas);
    const feeMarket = tx.type === 2;
    let maxCost = tx.value;
    if (feeMarket) maxCost += tx.gasLimit * (tx.maxFeePerGas as bigint);
    if (balance < upFrontCost || fromAccount.balance < maxCost) {
      await checkFunds(vm, opts, block, tx, caller, fromAccount, balance, upFrontCost, maxCost);
    }
    if (opts.skipNonce !== true && nonce !== tx.nonce) {
      fail(
        `the tx doesn't have the correct nonce. account has nonce of: ${nonce} tx has nonce of: ${tx.nonce}`,
        vm,
        block,
        tx,
      );
    }
    let gasPrice: bigint;
    let inclusionFeePerGas: bigint | undefined;
    if (feeMarket) {
      inclusionFeePerGas = tx.getEffectivePriorityFee(baseFeePerGas);
      gasPrice = inclusionFeePerGas + baseFeePerGas;
    } else {
      gasPrice = tx.gasPrice as bigint;
      if (rules.eip1559) inclusionFeePerGas = gasPrice - baseFeePerGas;
    }
    // Deduct the gas cost, then bump the nonce (two puts, as stock).
    const txCost = tx.gasLimit * gasPrice;
    fromAccount.balance -= txCost;
    if (opts.skipBalance === true && fromAccount.balance < 0n) fromAccount.balance = 0n;
    step = journal.putAccount(caller, fromAccount);
    if (step !== SETTLED) await step;
    fromAccount.nonce += 1n;
    step = journal.putAccount(caller, fromAccount);
    if (step !== SETTLED) await step;
    // The nested prep checkpoint (7702 authorizations would run inside it).
    step = journal.checkpoint();
    if (step !== SETTLED) await step;
    const to = tx.to;
    let results: LeanResult;
    try {
      const call = {
        block,
        gasPrice,
        caller,
        gasLimit,
        to,
        value: tx.value,
        data: tx.data,
        blobVersionedHashes: undefined,
        accessWitness: undefined,
        skipNonceIncrement: true,
      };
      // A value transfer to an account without code takes runCall's steps for it alone (plainCall.ts).
      const plain = await runPlainCall(evm as unknown as EVM, call, rules.eip1153);
      results = (plain ?? (await evm.runCall(call))) as LeanResult;
    } catch (e) {
      await journal.revert();
      throw e;
    }
    if (evm.eip2780PrepOog === true) await journal.revert();
    else {
      step = journal.commit();
      if (step !== SETTLED) await step;
    }
    evm.eip7928CallPostTargetOog = false;
    evm.createTxTargetAlive = false;
    // ---- gas and balances
    const execResult = results.execResult;
    results.totalGasSpent = execResult.executionGasUsed + intrinsicGas;
    const gasRefund = execResult.gasRefund ?? 0n;
    results.gasRefund = gasRefund;
    // Stock caps and subtracts only a non-zero refund; for 0n this subtracts 0n (the same value).
    // Run for every transaction so value transfers, which have none, leave this code type feedback.
    const maxRefund = results.totalGasSpent / rules.maxRefundQuotient;
    results.totalGasSpent -= gasRefund < maxRefund ? gasRefund : maxRefund;
    if (rules.eip7623 && results.totalGasSpent < floorCost) {
      results.gasRefund = 0n;
      results.totalGasSpent = floorCost;
    }
    const totalGasSpent = results.totalGasSpent;
    results.blockGasSpent = totalGasSpent;
    results.amountSpent = totalGasSpent * gasPrice;
    const cachedAfter = cachedAccount(state, caller);
    fromAccount = (cachedAfter !== undefined ? cachedAfter : await state.getAccount(caller)) ?? new Account();
    fromAccount.balance += txCost - totalGasSpent * gasPrice;
    step = journal.putAccount(caller, fromAccount);
    if (step !== SETTLED) await step;
    // updateMinerBalance (not proof of authority: the coinbase)
    const miner = header.coinbase;
    const cachedMiner = cachedAccount(state, miner);
    const minerAccount = (cachedMiner !== undefined ? cachedMiner : await state.getAccount(miner)) ?? new Account();
    results.minerValue = rules.eip1559 ? totalGasSpent * (inclusionFeePerGas as bigint) : results.amountSpent;
    minerAccount.balance += results.minerValue;
    step = journal.putAccount(miner, minerAccount);
    if (step !== SETTLED) await step;
    // A call to an account without code has no selfdestruct map: the shared empty one is read
    // instead, so `.size` has type feedback from value transfers and a fresh node's first contract
    // call does not throw this function's optimised code away ('insufficient type feedback').
    const selfdestruct = (execResult.selfdestruct as Map<string, unknown> | undefined) ?? NO_SELFDESTRUCTS;
    if (selfdestruct.size > 0) await destroyAccounts(journal, rules, results);
    const logs = execResult.logs;
    results.bloom = logsBloom(logs, vm.common);
    step = journal.cleanup();
    if (step !== SETTLED) await step;
    state.originalStorageCache.clear();
    // generateTxReceipt, from Byzantium on, for a transaction without blobs
    const cumulativeBlockGasUsed = (opts.blockGasUsed ?? header.gasUsed) + totalGasSpent;
    const failed = typed ? Boolean(execResult.exceptionError) : execResult.exceptionError !== undefined;
    results.receipt = {
      status: failed ? 0 : 1,
      cumulativeBlockGasUsed,
      bitvector: results.bloom.bitvector,
      logs: logs ?? [],
    };
    step = vm._emit('afterTx', afterTxEvent(tx, results));
    if (step !== SETTLED) await step;
    step = journal.commit();
    if (step !== SETTLED) await step;
    return results;
  } catch (e) {
    await journal.revert();
    throw e;
  } finally {
    if (rules.eip2929) journal.cleanJournal();
    evm.stateManager.originalStorageCache.clear();
  }
}

// ---------------------------------------------------------------------------------------------
// Rare paths, kept out of the hot function

/** runTx.js's `_errorMsg`, thrown. */
function fail(msg: string, vm: LeanVm, block: Block, tx: LeanTx): never {
  const blockErrorStr = 'errorStr' in block ? block.errorStr() : 'block';
  const txErrorStr = 'errorStr' in tx ? (tx as { errorStr(): string }).errorStr() : 'tx';
  throw EthereumJSErrorWithoutCode(`${msg} (${vm.errorStr()} -> ${blockErrorStr} -> ${txErrorStr})`);
}

/** runTx's hardfork alignment when `skipHardForkValidation` is not set. */
function syncHardfork(vm: LeanVm, block: Block, tx: LeanTx): void {
  if (tx.common.hardfork() !== block.common.hardfork()) tx.common.setHardfork(block.common.hardfork());
  if (block.common.hardfork() !== vm.common.hardfork()) {
    fail('block has a different hardfork than the vm', vm, block, tx);
  }
}

/** The transaction's access list, warmed (runTx's loop, after the checkpoint). */
function warmAccessList(journal: LeanJournal, tx: LeanTx): void {
  const list = tx.accessList ?? [];
  for (let i = 0; i < list.length; i++) {
    const [addressBytes, slotBytesList] = list[i];
    const address = bytesToUnprefixedHex(addressBytes);
    journal.addAlwaysWarmAddress(address, true);
    for (const storageKey of slotBytesList) journal.addAlwaysWarmSlot(address, bytesToUnprefixedHex(storageKey), true);
  }
}

/** EIP-1559: the fee cap (or legacy gas price) must cover the block's base fee. */
function checkFeeCap(vm: LeanVm, block: Block, tx: LeanTx, baseFeePerGas: bigint): void {
  const capped = 'maxFeePerGas' in tx;
  const maxFeePerGas = (capped ? tx.maxFeePerGas : tx.gasPrice) as bigint;
  if (maxFeePerGas < baseFeePerGas) {
    fail(
      `Transaction's ${capped ? 'maxFeePerGas' : 'gasPrice'} (${maxFeePerGas}) is less than the block's baseFeePerGas (${baseFeePerGas})`,
      vm,
      block,
      tx,
    );
  }
}

/** EIP-3607: a sender with code is refused unless its code is an EIP-7702 delegation. */
async function checkSenderCode(vm: LeanVm, rules: TxRules, block: Block, tx: LeanTx, caller: Address): Promise<void> {
  if (rules.eip7702) {
    const code = await vm.stateManager.getCode(caller);
    if (equalsBytes(code.slice(0, 3), DELEGATION_7702_FLAG)) return;
  }
  fail('invalid sender address, address is not EOA (EIP-3607)', vm, block, tx);
}

/** runTx's two balance checks (upfront cost, then max cost), with `skipBalance` as stock. */
async function checkFunds(
  vm: LeanVm,
  opts: RunTxOpts,
  block: Block,
  tx: LeanTx,
  caller: Address,
  fromAccount: Account,
  balance: bigint,
  upFrontCost: bigint,
  maxCost: bigint,
): Promise<void> {
  const skip = opts.skipBalance === true;
  if (balance < upFrontCost) {
    if (skip && fromAccount.balance < upFrontCost) {
      if (tx.type !== 2) {
        fromAccount.balance = upFrontCost;
        await vm.evm.journal.putAccount(caller, fromAccount);
      }
    } else {
      fail(
        `sender doesn't have enough funds to send tx. The upfront cost is: ${upFrontCost} and the sender's account (${caller}) only has: ${balance}`,
        vm,
        block,
        tx,
      );
    }
  }
  if (fromAccount.balance < maxCost) {
    if (skip && fromAccount.balance < maxCost) {
      fromAccount.balance = maxCost;
      await vm.evm.journal.putAccount(caller, fromAccount);
    } else {
      fail(
        `sender doesn't have enough funds to send tx. The max cost is: ${maxCost} and the sender's account (${caller}) only has: ${balance}`,
        vm,
        block,
        tx,
      );
    }
  }
}

/** processSelfdestructs without EIP-7708/8246/7928 (not active on the lean path): sorted, EIP-6780. */
async function destroyAccounts(journal: LeanJournal, rules: TxRules, results: LeanResult): Promise<void> {
  const execResult = results.execResult;
  const sorted = [...(execResult.selfdestruct as Map<string, unknown>).entries()].sort(([a], [b]) =>
    a.localeCompare(b),
  );
  for (const [hex] of sorted) {
    const address = new Address(hexToBytes(hex as `0x${string}`));
    if (rules.eip6780 && !(execResult.createdAddresses as Set<string>).has(address.toString())) continue;
    await journal.deleteAccount(address);
  }
}

/** txLogsBloom: each log's address and topics. */
function logsBloom(logs: RunTxResult['execResult']['logs'], common: Common): Bloom {
  const bloom = new Bloom(undefined, common);
  if (logs) {
    for (let i = 0; i < logs.length; i++) {
      const log = logs[i];
      bloom.add(log[0]);
      const topics = log[1];
      for (let q = 0; q < topics.length; q++) bloom.add(topics[q]);
    }
  }
  return bloom;
}

/** The keys a lean result has, in order, with runCall's `createdAddress` (a creation, or a call through leanExecuteCall). */
const RESULT_KEYS = [
  'createdAddress',
  'execResult',
  'totalGasSpent',
  'gasRefund',
  'blockGasSpent',
  'amountSpent',
  'minerValue',
  'bloom',
  'receipt',
];

/**
 * `{ transaction: tx, ...results }`: written out as one literal when the results have the keys
 * RESULT_KEYS names, in that order (V8 spreads into a literal that already has a key on a slow
 * runtime path); the spread itself for any other shape.
 */
export function afterTxEvent(tx: unknown, results: RunTxResult): Record<string, unknown> {
  const keys = Object.keys(results);
  let plain = keys.length === RESULT_KEYS.length;
  for (let i = 0; plain && i < keys.length; i++) plain = keys[i] === RESULT_KEYS[i];
  if (!plain) return { transaction: tx, ...results };
  const r = results as LeanResult;
  return {
    transaction: tx,
    createdAddress: r.createdAddress,
    execResult: r.execResult,
    totalGasSpent: r.totalGasSpent,
    gasRefund: r.gasRefund,
    blockGasSpent: r.blockGasSpent,
    amountSpent: r.amountSpent,
    minerValue: r.minerValue,
    bloom: r.bloom,
    receipt: r.receipt,
  };
}

/** For tests: forget the pinning decision (so a test can see it made again). */
export function _resetPinnedForTests(): void {
  pinned = undefined;
}
