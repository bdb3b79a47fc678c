import { AshlarError, ErrorCodes, toData, toQuantity } from '@ashlar/core';
import { EVMError, type InterpreterStep } from '@ethereumjs/evm';
import { type Address, bytesToHex, hexToBytes } from '@ethereumjs/util';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import type { TxTracer } from './tracer.js';

/** Options of geth's opcode ("struct") logger, the default tracer. */
export interface TraceConfig {
  disableStack: boolean;
  disableStorage: boolean;
  enableMemory: boolean;
  enableReturnData: boolean;
  /** Most steps recorded; 0 for no limit. */
  limit: number;
}

export interface StructLog {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  refund?: number;
  stack?: string[];
  memory?: string[];
  storage?: Record<string, string>;
  returnData?: string;
  error?: string;
}

export interface TxTrace {
  gas: number;
  failed: boolean;
  returnValue: string;
  structLogs: StructLog[];
}

// Plain string padding: setLengthLeft allocates, and this runs at every SLOAD and SSTORE.
const word = (n: bigint): string => `0x${n.toString(16).padStart(64, '0')}`;

/** Puts an SLOAD's value into the contract's running slot set and into the SLOAD's own log. */
function fill(p: { slots: Record<string, string>; log: StructLog; key: string }, value: string): void {
  p.slots[p.key] = value;
  if (p.log.storage) p.log.storage[p.key] = value;
}

/**
 * Collects geth-style struct logs from the EVM's `step` events of one transaction. Storage is
 * the running set of slots each contract read or wrote, shown at SLOAD and SSTORE only.
 */
export class StructLogger implements TxTracer<TxTrace> {
  readonly logs: StructLog[] = [];
  private readonly storage = new Map<string, Record<string, string>>();
  private lastReturnData: Uint8Array = new Uint8Array(0);
  /** Rough JSON size of the logs so far, against `maxBytes`. */
  private bytes = 0;
  private overflowed = false;

  /** `maxBytes`: the most JSON the logs may take (the node's maxResponseBytes); 0 for no ceiling. */
  constructor(
    private readonly config: TraceConfig,
    private readonly maxBytes = 0,
  ) {}

  /** An SLOAD whose value shows up on the stack of the step after it. */
  private pendingLoad?: {
    pc: number;
    depth: number;
    slots: Record<string, string>;
    log: StructLog;
    key: string;
    address: Address;
  };
  private readonly unresolved: NonNullable<StructLogger['pendingLoad']>[] = [];

  /**
   * Synchronous on purpose: the EVM awaits only two-argument `step` listeners, and a promise per
   * opcode is most of a trace's cost. An SLOAD's value is taken from the next step's stack top
   * (what the SLOAD pushed) instead of a state read.
   */
  readonly onStep = (step: InterpreterStep): void => {
    const pending = this.pendingLoad;
    if (pending) {
      this.pendingLoad = undefined;
      const top = step.stack[step.stack.length - 1];
      if (step.depth === pending.depth && step.pc === pending.pc + 1 && top !== undefined) fill(pending, word(top));
      else this.unresolved.push(pending);
    }
    // Past the ceiling every step fails as out of gas, so each frame halts at its next opcode and
    // the transaction ends at once; end() then answers the ceiling's error.
    if (this.overflowed) throw new EVMError(EVMError.errorMessages.OUT_OF_GAS);
    if (this.config.limit > 0 && this.logs.length >= this.config.limit) return;
    const name = step.opcode.name;
    const log: StructLog = {
      pc: step.pc,
      op: name,
      gas: Number(step.gasLeft),
      gasCost: Number(step.opcode.dynamicFee ?? BigInt(step.opcode.fee)),
      depth: step.depth + 1,
    };
    if (step.gasRefund > 0n) log.refund = Number(step.gasRefund);
    if (!this.config.disableStack) log.stack = step.stack.map((v) => toQuantity(v));
    if (this.config.enableMemory) {
      const mem: string[] = [];
      for (let o = 0; o < step.memory.length; o += 32) mem.push(toData(step.memory.subarray(o, o + 32)));
      log.memory = mem;
    }
    if (this.config.enableReturnData) log.returnData = toData(this.lastReturnData);
    if (!this.config.disableStorage && (name === 'SLOAD' || name === 'SSTORE')) {
      const address = step.address.toString();
      const slots = this.storage.get(address) ?? {};
      this.storage.set(address, slots);
      const slot = step.stack[step.stack.length - 1];
      if (slot !== undefined) {
        const key = word(slot);
        if (name === 'SSTORE') slots[key] = word(step.stack[step.stack.length - 2] ?? 0n);
        else this.pendingLoad = { pc: step.pc, depth: step.depth, slots, log, key, address: step.address };
      }
      log.storage = { ...slots };
    }
    this.logs.push(log);
    if (this.maxBytes > 0) this.count(log);
  };

  /**
   * A step's JSON is ~90 bytes plus its stack, memory and storage words; counted from what was
   * built (array lengths, no stringify). Past the ceiling the logs are dropped.
   */
  private count(log: StructLog): void {
    let n = 90;
    if (log.stack) for (const v of log.stack) n += v.length + 3;
    if (log.memory) n += log.memory.length * 69;
    if (log.storage) n += Object.keys(log.storage).length * 136;
    this.bytes += n;
    if (this.bytes <= this.maxBytes) return;
    this.overflowed = true;
    this.logs.length = 0;
  }

  /** Return data of a finished call frame: what RETURNDATACOPY would see at the next step. */
  readonly onAfterMessage = (result: { execResult: { returnValue: Uint8Array } }): void => {
    this.lastReturnData = result.execResult.returnValue;
  };

  async begin(vm: VM): Promise<void> {
    vm.evm.events?.on('step', this.onStep);
    vm.evm.events?.on('afterMessage', this.onAfterMessage);
  }

  async end(vm: VM, r: RunTxResult): Promise<TxTrace> {
    if (this.overflowed) {
      throw new AshlarError(
        ErrorCodes.EXECUTION,
        `trace too large: the struct logs passed ${this.maxBytes} bytes (maxResponseBytes, --max-response-bytes); leave out "enableMemory", set "disableStack" or a step "limit", or use the callTracer`,
      );
    }
    // An SLOAD that halted its frame (out of gas) pushed nothing: read the slot instead.
    if (this.pendingLoad) this.unresolved.push(this.pendingLoad);
    this.pendingLoad = undefined;
    for (const p of this.unresolved) {
      const v = await vm.stateManager.getStorage(p.address, hexToBytes(p.key as `0x${string}`));
      fill(p, `0x${bytesToHex(v).slice(2).padStart(64, '0')}`);
    }
    return {
      gas: Number(r.totalGasSpent),
      failed: r.execResult.exceptionError !== undefined,
      returnValue: toData(r.execResult.returnValue),
      structLogs: this.logs,
    };
  }

  dispose(vm: VM): void {
    vm.evm.events?.off('step', this.onStep);
    vm.evm.events?.off('afterMessage', this.onAfterMessage);
  }
}
