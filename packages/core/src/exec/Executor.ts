import { Block, type BlockHeader, type HeaderData, createBlock } from '@ethereumjs/block';
import { Hardfork } from '@ethereumjs/common';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { Address, bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import { runTxLean } from '../evm/leanRunTx.js';
import type { ChainService } from '../chain/ChainService.js';
import type { StoredBlock } from '../chain/types.js';
import type { MinerService } from '../miner/MinerService.js';
import type { EVM } from '@ethereumjs/evm';
import { withConsole } from '../console/ConsoleCapture.js';
import type { EventBus } from '../events/EventBus.js';
import { allowContractSender } from './contractSender.js';
import { AshlarError, isAshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import { applyStateOverrides } from './applyStateOverrides.js';
import { ExecutionDeadline } from './ExecutionDeadline.js';
import { revertMessage } from './decodeRevert.js';
import { nameCustomError } from './customErrorText.js';
import { withRevertPcs } from './revertPc.js';
import type { KnownContracts } from './KnownContracts.js';
import type { CallRequest, StateOverrides } from './types.js';
import { type CachedCall, CallResultCache, bytesKey, callRequestKey } from './CallResultCache.js';
import { accessListField, authorizationListField } from './txFields.js';
import { shortHex } from './shortHex.js';
import { cloneHeader } from '../miner/cloneHeader.js';
import { callTxWithData, shapeCallTx } from './callTxCopy.js';
import { scratchVm } from './scratchVm.js';

export interface CallOutcome {
  result: RunTxResult;
  returnValue: Uint8Array;
  gasUsed: bigint;
  /** EVM error text when the call failed (`revert`, `out of gas`, …). */
  error?: string;
}

/** Where a call runs: on a stored block's state and header, or in the next block ("pending"). */
export type ExecTarget = StoredBlock | 'pending';

/** One request's execution context: the header its transactions run under. */
interface RunContext {
  header: HeaderData;
  /** The header's gas limit (read without building `header`). */
  gasLimit?: bigint;
  /** Cache key of the header (undefined: built per request). */
  key?: string;
  /** The state root the call runs on (stored targets; set once the VM is chosen). */
  stateRoot?: Uint8Array;
  /** The stored block's own header (stored targets): call blocks are derived from it. */
  base?: BlockHeader;
}

/** EIP-7825 (Osaka): no transaction may carry more gas than 2^24. */
const EIP7825_CAP = 16_777_216n;
const ZERO_ADDRESS = new Address(new Uint8Array(20));

/**
 * Hardhat's tolerance when it searches for the least gas (EDR's `min_difference`): the estimate
 * stops once the bounds are this close; it may exceed the exact least gas by at most that much.
 */
function searchTolerance(lo: bigint): bigint {
  if (lo >= 4_000_000n) return 50_000n;
  if (lo >= 1_000_000n) return 10_000n;
  if (lo >= 100_000n) return 1_000n;
  if (lo >= 50_000n) return 500n;
  if (lo >= 30_000n) return 300n;
  return 200n;
}

/**
 * Runs transactions that are never mined: eth_call and eth_estimateGas. They execute as real
 * transactions (intrinsic gas, warm addresses, refunds) with the sender set without a
 * signature, inside a checkpoint that is always reverted. No EIP-3607 check: a sender with code
 * may call, as in geth, Hardhat and Anvil.
 *
 * "pending" runs in the block that would be mined now, as Hardhat's node does: number head+1,
 * the miner's next timestamp (evm_setNextBlockTimestamp, the evm_increaseTime offset), next base
 * fee, coinbase and prevRandao, on the head state with the pool's executable transactions
 * applied first (they are there only with automine off).
 */
export class Executor {
  /** Unsigned transactions of recent plain calls, by request less its data (see unsignedTx); at most 256. */
  private readonly callTxs = new Map<string, TypedTransaction>();
  /** The Common the cached transactions were made with (a reset may bring another). */
  private callTxsCommon?: unknown;
  /** The last few call blocks (createBlock costs about a millisecond), newest last. */
  private readonly contextCache = new Map<string, Block>();
  /**
   * The call block last returned, with what it was made for: consecutive calls on one head ask
   * for the same block, found here by comparing three values instead of building a string key
   * (with a bigint's digits) and hashing it into contextCache (~1 µs of an eth_call).
   */
  private lastContext?: { key: string; noFee: boolean; gasLimit: bigint; block: Block };
  /** The key of the block hash last called at (`shortHex` builds it digit pair by digit pair). */
  private lastHashKey?: { hash: Uint8Array; key: string };
  /** Answers of eth_call by block, state root and request (see call). */
  private readonly results = new CallResultCache();
  /** The Common and fork the cached answers were computed under (a reset may bring others). */
  private resultsScope?: { common: unknown; fork: unknown };
  /** The last key prefix made (block hash, state root), reused while both are the same objects. */
  private lastPrefix?: { hash: Uint8Array; root: Uint8Array; lines: boolean; prefix: string };

  constructor(
    private readonly chain: ChainService,
    private readonly gasCap: bigint,
    /** Wall-clock limit of one eth_call / eth_estimateGas in ms; 0 = none. */
    private readonly timeoutMs = 0,
    private readonly miner?: MinerService,
    /** Where console.sol lines of calls go; `estimates`: also those of eth_estimateGas's first run. */
    private readonly consoleOut?: { events: EventBus; estimates: boolean },
    /** ABIs of known contracts, to name a custom error a call reverts with. */
    private readonly known?: KnownContracts,
  ) {}

  /** Error 3 for a reverted call: the revert bytes in `data`, the reason or named custom error in the message. */
  private revertError(req: CallRequest, data: Uint8Array, pcs?: readonly number[]): AshlarError {
    const named = nameCustomError(this.known, req.to?.bytes, req.data ?? new Uint8Array(), data, pcs);
    return new AshlarError(ErrorCodes.REVERTED, revertMessage(data, named), { data: bytesToHex(data) });
  }

  /** Whether the called contract's source lines are known (then a revert's pc is worth noting). */
  private hasSourceLines(req: CallRequest): boolean {
    const known = this.known;
    if (!req.to || known === undefined || known.isEmpty) return false;
    return known.lookup(shortHex(req.to.bytes))?.sourceLine !== undefined;
  }

  /** Runs one call collecting its console.sol lines, which go out as kernel `console` events (also when it fails). */
  private async logConsole<T>(
    vm: VM,
    method: 'eth_call' | 'eth_estimateGas',
    req: CallRequest,
    fn: () => Promise<T>,
    seen?: { lines: number },
  ): Promise<T> {
    const out = this.consoleOut;
    if (!out || (method === 'eth_estimateGas' && !out.estimates)) return fn();
    const run = await withConsole(vm.evm as EVM, fn);
    if (seen) seen.lines += run.lines.length;
    if (run.lines.length > 0) {
      const call = { method, from: req.from?.toString(), to: req.to?.toString() };
      for (const line of run.lines) out.events.emit('console', { ...line, call });
    }
    if (!run.ok) throw run.error;
    return run.value;
  }

  /**
   * Runs `fn` on a VM positioned at the target's state; the head's VM under the chain lock. With
   * a deadline, the VM's loop opcodes are timed for the duration of `fn` only.
   */
  private async withVm<T>(
    at: ExecTarget,
    deadline: ExecutionDeadline | undefined,
    fn: (vm: VM, ctx: RunContext) => Promise<T>,
    /** `fn` changes no state but through runOnce (which reverts its own): no outer checkpoint needed. */
    selfReverting = false,
  ): Promise<T> {
    const run = async (vm: VM, ctx: RunContext, before?: (vm: VM) => Promise<void>): Promise<T> => {
      // The pool's transactions (`before`) are state changes of their own: they need the checkpoint.
      const outer = !selfReverting || before !== undefined;
      if (outer) await vm.evm.journal.checkpoint();
      const disarm = deadline?.arm(vm.evm as Parameters<ExecutionDeadline['arm']>[0]);
      try {
        if (before) await before(vm);
        return await fn(vm, ctx);
      } finally {
        disarm?.();
        if (outer) await vm.evm.journal.revert();
      }
    };
    const chain = this.chain;
    if (at === 'pending') {
      const miner = this.miner;
      if (!miner) return this.withVm(chain.head, deadline, fn, selfReverting);
      return chain.exclusive(async () => {
        const header = miner.pendingHeader();
        // Keyed by what makes the pending block: building one costs about a millisecond.
        const key = `pending:${bytesToHex(header.parentHash as Uint8Array)}:${header.timestamp}:${header.baseFeePerGas}:${miner.coinbase}:${bytesToHex(header.mixHash as Uint8Array)}:${header.gasLimit}`;
        const ctx: RunContext = { header, key };
        const txs = await miner.executableTxs();
        return run(await this.headVm(), ctx, txs.length > 0 ? (vm) => this.applyPending(vm, ctx, txs) : undefined);
      });
    }
    // The header's JSON is needed only to build a call block the cache lacks.
    const header = at.block.header;
    let json: HeaderData | undefined;
    const ctx: RunContext = {
      get header() {
        json ??= header.toJSON() as HeaderData;
        return json;
      },
      gasLimit: header.gasLimit,
      key: this.hashKey(at.hash),
      stateRoot: undefined,
      base: header,
    };
    if (chain.isHead(at)) {
      return chain.exclusive(async () => {
        // Read under the lock: a block mined or a state edit made while this call waited moved it.
        ctx.stateRoot = chain.headStateRoot;
        return run(await this.headVm(), ctx);
      });
    }
    ctx.stateRoot = at.block.header.stateRoot;
    const sm = await chain.stateManagerFor(at);
    return run(await chain.createVmOn(sm), ctx);
  }

  /**
   * The VM a call on the head (or the pending block) runs on, under the chain lock: the head's
   * own, whose journal reverts everything the call wrote. Not before Byzantium: there runTx puts
   * the state root after the transaction in its receipt, and getting it flushes the state caches
   * into the trie inside the call's checkpoint. The trie's revert undoes the flush but the
   * caches' journal cannot (a flush takes its level's changes), so the call's sender nonce and
   * the accounts it touched stayed in the head state and the next block mined them. Calls there
   * run on a scratch VM over the head's state instead, whose writes go nowhere.
   */
  private async headVm(): Promise<VM> {
    const chain = this.chain;
    if (chain.vm.common.gteHardfork(Hardfork.Byzantium)) return chain.vm;
    const head = chain.head;
    return scratchVm(
      chain,
      chain.headStateRoot,
      { number: head.number, timestamp: head.block.header.timestamp },
      { caches: true },
    );
  }

  /** The pool's executable transactions, run in the pending block before the call (failures skipped, as the miner does). */
  private async applyPending(vm: VM, ctx: RunContext, txs: Awaited<ReturnType<MinerService['executableTxs']>>) {
    const block = this.contextBlock(ctx, false, 0n);
    let gasUsed = 0n;
    const limit = BigInt(ctx.header.gasLimit as bigint);
    for (const ptx of txs) {
      if (ptx.tx.gasLimit > limit - gasUsed) continue;
      const sender = await allowContractSender(vm, ptx.sender);
      try {
        const r = await runTxLean(vm, { tx: ptx.tx, block, blockGasUsed: gasUsed, skipHardForkValidation: true });
        gasUsed += r.blockGasSpent;
      } catch {
        // not minable now (the miner drops it too)
      } finally {
        sender.restore();
      }
    }
  }

  private deadline(): ExecutionDeadline | undefined {
    return this.timeoutMs > 0 ? new ExecutionDeadline(this.timeoutMs) : undefined;
  }

  /**
   * The block a call runs in: the context's header with room for `gas`, base fee 0 for a
   * price-less call (as geth and Hardhat).
   */
  private contextBlock(ctx: RunContext, noFee: boolean, gas: bigint): Block {
    const limit = ctx.gasLimit ?? BigInt(ctx.header.gasLimit as bigint);
    const gasLimit = gas > limit ? gas : limit;
    const last = this.lastContext;
    if (
      last !== undefined &&
      ctx.key !== undefined &&
      last.key === ctx.key &&
      last.noFee === noFee &&
      last.gasLimit === gasLimit
    ) {
      return last.block;
    }
    const key = ctx.key === undefined ? undefined : `${ctx.key}:${noFee}:${gasLimit}`;
    const cached = key === undefined ? undefined : this.contextCache.get(key);
    if (cached) {
      this.lastContext = { key: ctx.key as string, noFee, gasLimit, block: cached };
      return cached;
    }
    const base = ctx.base;
    let block: Block;
    if (base !== undefined && !(noFee && isLondonTransition(base))) {
      // The stored header with the call's gas limit and base fee, made as the miner makes the
      // header its transactions run under (cloneHeader): the same values createBlock would check
      // and set from the header's JSON, and the same object shape, which runTx's optimised code
      // was made for while mining (createBlock's is another: the first calls deoptimised it).
      const changes = { gasLimit, baseFeePerGas: noFee && base.baseFeePerGas !== undefined ? 0n : undefined };
      block = new Block(cloneHeader(base, changes));
    } else {
      const header = { ...ctx.header } as Record<string, unknown>;
      header.gasLimit = gasLimit;
      if (noFee && header.baseFeePerGas !== undefined) header.baseFeePerGas = 0n;
      block = createBlock(
        { header: header as HeaderData },
        { common: this.chain.common, setHardfork: true, skipConsensusFormatValidation: true },
      );
    }
    if (key !== undefined) {
      this.contextCache.set(key, block);
      if (this.contextCache.size > 4) this.contextCache.delete(this.contextCache.keys().next().value as string);
      this.lastContext = { key: ctx.key as string, noFee, gasLimit, block };
    }
    return block;
  }

  /** `shortHex(hash)`, remembered for the hash array last asked about (the head's, call after call). */
  private hashKey(hash: Uint8Array): string {
    const last = this.lastHashKey;
    if (last !== undefined && last.hash === hash) return last.key;
    const key = shortHex(hash);
    this.lastHashKey = { hash, key };
    return key;
  }

  /**
   * The unsigned transaction a call runs as. Creating one validates and copies every field (about
   * a twentieth of an ERC-20 getter's eth_call): a plain call (same sender, target, gas, nonce,
   * fees, value and type as a recent one) reuses that one's transaction, as is when the data is
   * the same too, else as a copy with the new data and an empty cache (the data gas is computed
   * from it, never validated: calldata of a plain call has no rule but its gas). Transactions are
   * immutable in use; calls with access or authorization lists, blobs or large data are built
   * each time.
   */
  private unsignedTx(req: CallRequest, from: Address, gas: bigint, nonce: bigint): TypedTransaction {
    const data = req.data;
    const plain =
      req.accessList === undefined &&
      req.authorizationList === undefined &&
      req.blobVersionedHashes === undefined &&
      req.maxFeePerBlobGas === undefined &&
      (req.type === undefined || req.type === 0 || req.type === 2) &&
      (data === undefined || data.length <= 1024);
    if (!plain) return buildUnsignedTx(this.chain, req, from, gas, nonce);
    if (this.callTxsCommon !== this.chain.common) {
      this.callTxs.clear();
      this.callTxsCommon = this.chain.common;
    }
    const key = `${from.toString()}|${req.to === undefined ? 'u' : (req.to?.toString() ?? 'n')}|${gas}|${nonce}|${req.value ?? ''}|${req.gasPrice ?? ''}|${req.maxFeePerGas ?? ''}|${req.maxPriorityFeePerGas ?? ''}|${req.type ?? ''}|${data === undefined ? 'u' : 'd'}`;
    const template = this.callTxs.get(key);
    if (template !== undefined) {
      if (data === undefined || equalsBytes(template.data, data)) return template;
      return callTxWithData(template, data);
    }
    // Frozen, as createTx leaves a transaction by default: only then does it keep its data gas
    // (and hash) in its cache instead of counting them on every ask. Remade in the shape of a
    // received transaction (see shapeCallTx): what runTx was optimised for while mining.
    const tx = shapeCallTx(frozen(buildUnsignedTx(this.chain, req, from, gas, nonce)));
    this.callTxs.set(key, tx);
    if (this.callTxs.size > 256) this.callTxs.delete(this.callTxs.keys().next().value as string);
    return tx;
  }

  private async runOnce(
    vm: VM,
    ctx: RunContext,
    req: CallRequest,
    gas: bigint,
    deadline: ExecutionDeadline | undefined,
    block?: Block,
  ): Promise<CallOutcome> {
    const from = req.from ?? ZERO_ADDRESS;
    const noFee =
      req.gasPrice === undefined && req.maxFeePerGas === undefined && req.maxPriorityFeePerGas === undefined;
    const execBlock = block ?? this.contextBlock(ctx, noFee || isZeroFee(req), gas);
    const acct = await vm.stateManager.getAccount(from);
    const tx = this.unsignedTx(req, from, gas, req.nonce ?? acct?.nonce ?? 0n);
    await vm.evm.journal.checkpoint();
    const sender = await allowContractSender(vm, from, { account: acct });
    try {
      const result = await runTxLean(vm, {
        tx,
        block: execBlock,
        skipNonce: true,
        skipBalance: noFee,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
      });
      if (deadline?.timedOut) throw timeoutError(deadline.ms);
      const err = result.execResult.exceptionError?.error;
      return { result, returnValue: result.execResult.returnValue, gasUsed: result.totalGasSpent, error: err };
    } catch (e) {
      throw isAshlarError(e) ? e : toExecutionError(e);
    } finally {
      sender.restore();
      await vm.evm.journal.revert();
    }
  }

  private capGas(req: CallRequest, blockGasLimit: bigint): bigint {
    let cap = this.gasCap;
    const common = this.chain.common;
    if (common.isActivatedEIP(7825)) {
      const txCap = EIP7825_CAP;
      if (txCap < cap) cap = txCap;
    }
    if (req.gas !== undefined) return req.gas < cap ? req.gas : cap;
    return blockGasLimit < cap ? blockGasLimit : cap;
  }

  private targetGasLimit(at: ExecTarget): bigint {
    return at === 'pending'
      ? (this.miner?.gasLimit ?? this.chain.head.block.header.gasLimit)
      : at.block.header.gasLimit;
  }

  /**
   * Runs `fn` in a target's context: its VM (state, with the pool applied for "pending") and a
   * maker of the block to run transactions in (base fee 0 for `noFee`, room for `gas`).
   * Everything `fn` changes is reverted; the request's time limit applies.
   */
  async inContext<T>(
    at: ExecTarget,
    fn: (vm: VM, blockFor: (noFee: boolean, gas: bigint) => Block, gasLimit: bigint) => Promise<T>,
  ): Promise<T> {
    const deadline = this.deadline();
    const out = await this.withVm(at, deadline, (vm, ctx) =>
      fn(vm, (noFee, gas) => this.contextBlock(ctx, noFee, gas), this.targetGasLimit(at)),
    );
    if (deadline?.timedOut) throw timeoutError(deadline.ms);
    return out;
  }

  /**
   * eth_call: the return data, or error 3 with the revert bytes, or -32000 with the EVM error.
   * `purpose`: what the call's console.sol lines count as ('eth_estimateGas' for a send's gas probe).
   */
  async call(
    req: CallRequest,
    at: ExecTarget,
    overrides?: StateOverrides,
    purpose: 'eth_call' | 'eth_estimateGas' = 'eth_call',
  ): Promise<Uint8Array> {
    const gas = this.capGas(req, this.targetGasLimit(at));
    const lines = this.hasSourceLines(req);
    // Cached: a plain eth_call on a stored block (no overrides); see CallResultCache.
    const stored = purpose === 'eth_call' && at !== 'pending' && overrides === undefined ? at : undefined;
    const reqKey = stored === undefined ? undefined : callRequestKey(req);
    let outcome: CachedCall | undefined;
    if (stored !== undefined && reqKey !== undefined) {
      const chain = this.chain;
      const root = chain.isHead(stored) ? chain.headStateRoot : stored.block.header.stateRoot;
      outcome = this.results.get(this.resultsPrefix(stored, root, lines) + reqKey);
    }
    // A hit and a run end at the same `answer` call: a fresh node's first calls all miss, and an
    // answer of its own on the hit path had no feedback when V8 optimised this method, which it
    // then threw away at the first hit.
    if (outcome === undefined) {
      const deadline = this.deadline();
      const seen = { lines: 0 };
      let root: Uint8Array | undefined;
      const { value: out, pcs } = await this.withVm(
        at,
        deadline,
        async (vm, ctx) => {
          root = ctx.stateRoot;
          await applyStateOverrides(vm.stateManager, overrides);
          return withRevertPcs(vm.evm as EVM, lines, () =>
            this.logConsole(vm, purpose, req, () => this.runOnce(vm, ctx, req, gas, deadline), seen),
          );
        },
        overrides === undefined,
      );
      outcome = { returnValue: out.returnValue, error: out.error, pcs };
      // Console lines go out on every run: a call that printed is run again each time.
      if (stored !== undefined && reqKey !== undefined && root !== undefined && seen.lines === 0) {
        this.results.set(this.resultsPrefix(stored, root, lines) + reqKey, outcome);
      }
    }
    return this.answer(req, outcome, gas);
  }

  /** A call's answer from its outcome: the return data, or the error (rebuilt each time: known contracts may change its message). */
  private answer(req: CallRequest, out: CachedCall, gas: bigint): Uint8Array {
    if (out.error === 'revert') throw this.revertError(req, out.returnValue, out.pcs);
    if (out.error) throw new AshlarError(ErrorCodes.EXECUTION, executionMessage(out.error, gas));
    return out.returnValue;
  }

  /**
   * The cache key's first part: the block (by hash) and the state (by root) a call runs on, and
   * whether its revert pcs are noted. Clears the cache when the chain's rules or fork changed.
   */
  private resultsPrefix(at: StoredBlock, root: Uint8Array, lines: boolean): string {
    const chain = this.chain;
    const scope = this.resultsScope;
    if (scope === undefined || scope.common !== chain.common || scope.fork !== chain.fork) {
      this.results.clear();
      this.resultsScope = { common: chain.common, fork: chain.fork };
      this.lastPrefix = undefined;
    }
    const last = this.lastPrefix;
    if (last !== undefined && last.hash === at.hash && last.root === root && last.lines === lines) return last.prefix;
    const prefix = `${bytesKey(at.hash)}${bytesKey(root)}${lines ? 1 : 0}`;
    this.lastPrefix = { hash: at.hash, root, lines, prefix };
    return prefix;
  }

  /**
   * eth_estimateGas, with Hardhat's and geth's shortcuts: one run with all the gas allowed (the
   * answer when no code ran: a plain transfer); then the gas it used plus its refund (the most it
   * consumed at any point), which is the answer for most transactions (2 runs in all, as
   * Hardhat); else geth's optimistic guess (that plus
   * the call stipend and the 1/64 that CALL keeps back), then a search between what failed and
   * what worked, stopping within Hardhat's tolerance.
   */
  async estimateGas(req: CallRequest, at: ExecTarget, overrides?: StateOverrides): Promise<bigint> {
    let hi = this.capGas(req, this.targetGasLimit(at));
    // One deadline for the whole search, as geth times the whole request.
    const deadline = this.deadline();
    return this.withVm(at, deadline, async (vm, ctx) => {
      await applyStateOverrides(vm.stateManager, overrides);
      const noFee =
        (req.gasPrice === undefined && req.maxFeePerGas === undefined && req.maxPriorityFeePerGas === undefined) ||
        isZeroFee(req);
      // One block for every run: its gas limit has room for the largest of them.
      const block = this.contextBlock(ctx, noFee, hi);
      const { value: first, pcs } = await withRevertPcs(vm.evm as EVM, this.hasSourceLines(req), () =>
        this.logConsole(vm, 'eth_estimateGas', req, () => this.runOnce(vm, ctx, req, hi, deadline, block)),
      );
      if (first.error === 'revert') throw this.revertError(req, first.returnValue, pcs);
      if (first.error) {
        if (first.error === 'out of gas' || first.error.includes('gas')) {
          throw new AshlarError(ErrorCodes.EXECUTION, `gas required exceeds allowance (${hi})`);
        }
        throw new AshlarError(ErrorCodes.EXECUTION, executionMessage(first.error, hi));
      }
      const peak = first.gasUsed + first.result.gasRefund;
      if (peak >= hi) return hi;
      // No code ran (a transfer to an account without code): the gas is the intrinsic cost (or
      // the EIP-7623 calldata floor), which is all a run needs; no second run to prove it.
      if (first.result.execResult.executionGasUsed === 0n && first.result.gasRefund === 0n) return peak;
      const exact = await this.runOnce(vm, ctx, req, peak, deadline, block);
      if (!exact.error) return peak;
      let lo = peak;
      const optimistic = ((peak + 2300n) * 64n) / 63n;
      if (optimistic < hi) {
        const o = await this.runOnce(vm, ctx, req, optimistic, deadline, block);
        if (!o.error) hi = optimistic;
        else lo = optimistic;
      }
      let first3x = true;
      while (hi - lo > searchTolerance(lo)) {
        let mid = (hi + lo) / 2n;
        // Most answers are close to lo: reach them in fewer steps (Hardhat starts at 3x).
        if (first3x && mid > lo * 3n) mid = lo * 3n;
        first3x = false;
        const r = await this.runOnce(vm, ctx, req, mid, deadline, block);
        if (r.error) lo = mid;
        else hi = mid;
      }
      return hi;
    });
  }
}

/** geth's wording (`--rpc.evmtimeout`), in whole seconds when it is a whole number of them. */
function timeoutError(ms: number): AshlarError {
  const shown = ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
  return new AshlarError(ErrorCodes.EXEC_TIMEOUT, `execution aborted (timeout = ${shown})`);
}

/**
 * A header of a chain's first EIP-1559 block after block 0: createBlockHeader rejects it with any
 * base fee but the initial one, as a free call's 0 (the call then fails as it always did).
 */
function isLondonTransition(header: BlockHeader): boolean {
  const london = header.common.hardforkBlock('london');
  return london !== null && london !== 0n && header.number === london;
}

function isZeroFee(req: CallRequest): boolean {
  return (req.gasPrice ?? 0n) === 0n && (req.maxFeePerGas ?? 0n) === 0n && (req.maxPriorityFeePerGas ?? 0n) === 0n;
}

function executionMessage(error: string, gas: bigint): string {
  if (error === 'out of gas') return `out of gas: gas required exceeds allowance (${gas})`;
  if (error === 'invalid opcode') return 'invalid opcode: INVALID';
  return error;
}

/** `tx`, frozen (Object.freeze types its result as read-only, which TypedTransaction is not declared as). */
function frozen<T extends object>(tx: T): T {
  Object.freeze(tx);
  return tx;
}

/** A transaction run only to observe it: sender set directly, no signature. */
export function buildUnsignedTx(
  chain: ChainService,
  req: CallRequest,
  from: Address,
  gas: bigint,
  nonce: bigint,
): TypedTransaction {
  const type =
    req.type ??
    (req.authorizationList
      ? 4
      : req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined
        ? 2
        : req.accessList && req.gasPrice === undefined
          ? 1
          : req.gasPrice === undefined && chain.common.isActivatedEIP(1559)
            ? 2
            : req.accessList
              ? 1
              : 0);
  const data: Record<string, unknown> = {
    type,
    nonce,
    gasLimit: gas,
    to: req.to ?? undefined,
    value: req.value ?? 0n,
    data: req.data ?? new Uint8Array(),
  };
  if (type >= 2) {
    data.maxFeePerGas = req.maxFeePerGas ?? req.gasPrice ?? 0n;
    data.maxPriorityFeePerGas =
      req.maxPriorityFeePerGas ?? (req.maxFeePerGas === undefined ? (req.gasPrice ?? 0n) : 0n);
    if ((data.maxPriorityFeePerGas as bigint) > (data.maxFeePerGas as bigint))
      data.maxPriorityFeePerGas = data.maxFeePerGas;
  } else data.gasPrice = req.gasPrice ?? 0n;
  if (type >= 1) {
    data.accessList = accessListField(req);
  }
  if (type === 4) {
    data.authorizationList = authorizationListField(req);
  }
  if (type === 3) {
    data.blobVersionedHashes = req.blobVersionedHashes ?? [];
    data.maxFeePerBlobGas = req.maxFeePerBlobGas ?? 0n;
  }
  const tx = createTx(data as Parameters<typeof createTx>[0], { common: chain.common, freeze: false });
  // The sender is given, not recovered: runTx asks this method only.
  (tx as { getSenderAddress: () => Address }).getSenderAddress = () => from;
  return tx;
}

function toExecutionError(e: unknown): AshlarError {
  // @ethereumjs appends its context (` (vm hf=… -> block … -> tx …)`): drop it whole, not half.
  const msg =
    e instanceof Error
      ? e.message
          .split('\n')[0]
          .replace(/ \(vm hf=.*$/, '')
          .split(' -> ')[0]
      : String(e);
  if (/insufficient balance|not enough funds|balance/i.test(msg)) {
    return new AshlarError(ErrorCodes.INSUFFICIENT_FUNDS, `insufficient funds for gas * price + value: ${msg}`);
  }
  if (/baseFeePerGas/i.test(msg))
    return new AshlarError(ErrorCodes.FEE_CAP_TOO_LOW, `max fee per gas less than block base fee: ${msg}`);
  if (/intrinsic|gas limit/i.test(msg))
    return new AshlarError(ErrorCodes.INTRINSIC_GAS, `intrinsic gas too low: ${msg}`);
  return new AshlarError(ErrorCodes.EXECUTION, msg);
}
