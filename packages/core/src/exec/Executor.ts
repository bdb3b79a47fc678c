import { type Block, createBlock } from '@ethereumjs/block';
import { type TypedTransaction, createTx } from '@ethereumjs/tx';
import { Address, bytesToHex } from '@ethereumjs/util';
import { type RunTxResult, type VM, runTx } from '@ethereumjs/vm';
import type { ChainService } from '../chain/ChainService.js';
import type { StoredBlock } from '../chain/types.js';
import { AshlarError, isAshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';
import { applyStateOverrides } from './applyStateOverrides.js';
import { ExecutionDeadline } from './ExecutionDeadline.js';
import { revertMessage } from './decodeRevert.js';
import type { CallRequest, StateOverrides } from './types.js';
import { accessListField, authorizationListField } from './txFields.js';

export interface CallOutcome {
  result: RunTxResult;
  returnValue: Uint8Array;
  gasUsed: bigint;
  /** EVM error text when the call failed (`revert`, `out of gas`, …). */
  error?: string;
}

/** EIP-7825 (Osaka): no transaction may carry more gas than 2^24. */
const EIP7825_CAP = 16_777_216n;
const ZERO_ADDRESS = new Address(new Uint8Array(20));

/**
 * Runs transactions that are never mined: eth_call and eth_estimateGas. They execute as real
 * transactions (intrinsic gas, warm addresses, refunds) with the sender set without a
 * signature, inside a checkpoint that is always reverted.
 */
export class Executor {
  private contextCache?: { key: string; block: Block };

  constructor(
    private readonly chain: ChainService,
    private readonly gasCap: bigint,
    /** Wall-clock limit of one eth_call / eth_estimateGas in ms; 0 = none. */
    private readonly timeoutMs = 0,
  ) {}

  /**
   * Runs `fn` on a VM positioned at `sb`'s state; the head's VM under the chain lock. With a
   * deadline, the VM's loop opcodes are timed for the duration of `fn` only.
   */
  private async withVm<T>(
    sb: StoredBlock,
    deadline: ExecutionDeadline | undefined,
    fn: (vm: VM) => Promise<T>,
  ): Promise<T> {
    const run = async (vm: VM): Promise<T> => {
      await vm.evm.journal.checkpoint();
      const disarm = deadline?.arm(vm.evm as Parameters<ExecutionDeadline['arm']>[0]);
      try {
        return await fn(vm);
      } finally {
        disarm?.();
        await vm.evm.journal.revert();
      }
    };
    const chain = this.chain;
    if (chain.isHead(sb)) return chain.exclusive(() => run(chain.vm));
    const sm = await chain.stateManagerFor(sb);
    return run(await chain.createVmOn(sm));
  }

  private deadline(): ExecutionDeadline | undefined {
    return this.timeoutMs > 0 ? new ExecutionDeadline(this.timeoutMs) : undefined;
  }

  /** The block context a call runs in: the requested block's header, base fee 0 for a price-less call (as geth). */
  private contextBlock(sb: StoredBlock, noFee: boolean, gas: bigint): Block {
    const key = `${bytesToHex(sb.hash)}:${noFee}:${gas}`;
    if (this.contextCache?.key === key) return this.contextCache.block;
    const h = sb.block.header;
    const header = { ...h.toJSON(), gasLimit: gas > h.gasLimit ? gas : h.gasLimit } as Record<string, unknown>;
    if (noFee && h.baseFeePerGas !== undefined) header.baseFeePerGas = 0n;
    const block = createBlock(
      { header },
      { common: this.chain.common, setHardfork: true, skipConsensusFormatValidation: true },
    );
    this.contextCache = { key, block };
    return block;
  }

  private async runOnce(
    vm: VM,
    sb: StoredBlock,
    req: CallRequest,
    gas: bigint,
    deadline: ExecutionDeadline | undefined,
  ): Promise<CallOutcome> {
    const from = req.from ?? ZERO_ADDRESS;
    const noFee =
      req.gasPrice === undefined && req.maxFeePerGas === undefined && req.maxPriorityFeePerGas === undefined;
    const block = this.contextBlock(sb, noFee || isZeroFee(req), gas);
    const acct = await vm.stateManager.getAccount(from);
    const tx = buildUnsignedTx(this.chain, req, from, gas, req.nonce ?? acct?.nonce ?? 0n);
    await vm.evm.journal.checkpoint();
    try {
      const result = await runTx(vm, {
        tx,
        block,
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
      await vm.evm.journal.revert();
    }
  }

  private capGas(req: CallRequest, sb: StoredBlock): bigint {
    let cap = this.gasCap;
    const common = this.chain.common;
    if (common.isActivatedEIP(7825)) {
      const txCap = EIP7825_CAP;
      if (txCap < cap) cap = txCap;
    }
    if (req.gas !== undefined) return req.gas < cap ? req.gas : cap;
    const bl = sb.block.header.gasLimit;
    return bl < cap ? bl : cap;
  }

  /** eth_call: the return data, or error 3 with the revert bytes, or -32000 with the EVM error. */
  async call(req: CallRequest, sb: StoredBlock, overrides?: StateOverrides): Promise<Uint8Array> {
    const gas = this.capGas(req, sb);
    const deadline = this.deadline();
    const out = await this.withVm(sb, deadline, async (vm) => {
      await applyStateOverrides(vm.stateManager, overrides);
      return this.runOnce(vm, sb, req, gas, deadline);
    });
    if (out.error === 'revert') {
      throw new AshlarError(ErrorCodes.REVERTED, revertMessage(out.returnValue), { data: bytesToHex(out.returnValue) });
    }
    if (out.error) throw new AshlarError(ErrorCodes.EXECUTION, executionMessage(out.error, gas));
    return out.returnValue;
  }

  /** eth_estimateGas: the least gas with which the transaction succeeds (binary search, as geth). */
  async estimateGas(req: CallRequest, sb: StoredBlock, overrides?: StateOverrides): Promise<bigint> {
    let hi = this.capGas(req, sb);
    // One deadline for the whole search, as geth times the whole request.
    const deadline = this.deadline();
    return this.withVm(sb, deadline, async (vm) => {
      await applyStateOverrides(vm.stateManager, overrides);
      const first = await this.runOnce(vm, sb, req, hi, deadline);
      if (first.error === 'revert') {
        throw new AshlarError(ErrorCodes.REVERTED, revertMessage(first.returnValue), {
          data: bytesToHex(first.returnValue),
        });
      }
      if (first.error) {
        if (first.error === 'out of gas' || first.error.includes('gas')) {
          throw new AshlarError(ErrorCodes.EXECUTION, `gas required exceeds allowance (${hi})`);
        }
        throw new AshlarError(ErrorCodes.EXECUTION, executionMessage(first.error, hi));
      }
      // Most transactions succeed with what they used plus the 1/64 kept back by CALLs:
      // try that first, then search between what failed and what worked.
      let lo = first.gasUsed - 1n;
      const optimistic = ((first.gasUsed + first.result.gasRefund + 2300n) * 64n) / 63n;
      if (optimistic < hi) {
        const o = await this.runOnce(vm, sb, req, optimistic, deadline);
        if (!o.error) hi = optimistic;
        else if (optimistic > lo) lo = optimistic;
      }
      while (lo + 1n < hi) {
        let mid = (hi + lo) / 2n;
        if (mid > lo * 2n) mid = lo * 2n; // most answers are close to lo: reach them in fewer steps
        const r = await this.runOnce(vm, sb, req, mid, deadline);
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

function isZeroFee(req: CallRequest): boolean {
  return (req.gasPrice ?? 0n) === 0n && (req.maxFeePerGas ?? 0n) === 0n && (req.maxPriorityFeePerGas ?? 0n) === 0n;
}

function executionMessage(error: string, gas: bigint): string {
  if (error === 'out of gas') return `out of gas: gas required exceeds allowance (${gas})`;
  if (error === 'invalid opcode') return 'invalid opcode: INVALID';
  return error;
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
  const msg = e instanceof Error ? e.message.split(' -> ')[0].split('\n')[0] : String(e);
  if (/insufficient balance|not enough funds|balance/i.test(msg)) {
    return new AshlarError(ErrorCodes.INSUFFICIENT_FUNDS, `insufficient funds for gas * price + value: ${msg}`);
  }
  if (/baseFeePerGas/i.test(msg))
    return new AshlarError(ErrorCodes.FEE_CAP_TOO_LOW, `max fee per gas less than block base fee: ${msg}`);
  if (/intrinsic|gas limit/i.test(msg))
    return new AshlarError(ErrorCodes.INTRINSIC_GAS, `intrinsic gas too low: ${msg}`);
  return new AshlarError(ErrorCodes.EXECUTION, msg);
}
