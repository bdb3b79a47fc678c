import { AshlarError, ErrorCodes, type ParamParser, toData, toQuantity } from '@ashlar/core';
import type { InterpreterStep } from '@ethereumjs/evm';
import { bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import type { RunTxResult } from '@ethereumjs/vm';

/** Options of geth's opcode ("struct") logger, the only tracer served. */
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

const flag = (o: Record<string, unknown>, k: string): boolean => {
  const v = o[k];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean')
    throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid argument 1: ${k} must be a boolean`);
  return v;
};

/** The optional TraceConfig parameter; a named tracer is refused (only the opcode logger exists). */
export const traceConfig = (index: number): ParamParser<TraceConfig> => ({
  name: 'config',
  optional: true,
  parse(v) {
    if (v === undefined || v === null) return defaults();
    if (typeof v !== 'object' || Array.isArray(v))
      throw new AshlarError(ErrorCodes.INVALID_PARAMS, `invalid argument ${index}: TraceConfig must be an object`);
    const o = v as Record<string, unknown>;
    if (typeof o.tracer === 'string' && o.tracer !== '')
      throw new AshlarError(
        ErrorCodes.EXECUTION,
        `tracer ${JSON.stringify(o.tracer)} is not supported (only the opcode logger)`,
      );
    const limit = o.limit === undefined || o.limit === null ? 0 : Number(o.limit);
    return {
      disableStack: flag(o, 'disableStack'),
      disableStorage: flag(o, 'disableStorage'),
      enableMemory: flag(o, 'enableMemory'),
      enableReturnData: flag(o, 'enableReturnData'),
      limit: Number.isSafeInteger(limit) && limit > 0 ? limit : 0,
    };
  },
});

function defaults(): TraceConfig {
  return { disableStack: false, disableStorage: false, enableMemory: false, enableReturnData: false, limit: 0 };
}

const word = (n: bigint): string => bytesToHex(setLengthLeft(bigIntToBytes(n), 32));

/**
 * Collects geth-style struct logs from the EVM's `step` events of one transaction. Storage is
 * the running set of slots each contract read or wrote, shown at SLOAD and SSTORE only.
 */
export class StructLogger {
  readonly logs: StructLog[] = [];
  private readonly storage = new Map<string, Record<string, string>>();
  private lastReturnData: Uint8Array = new Uint8Array(0);

  constructor(private readonly config: TraceConfig) {}

  readonly onStep = async (step: InterpreterStep): Promise<void> => {
    if (this.config.limit > 0 && this.logs.length >= this.config.limit) return;
    const log: StructLog = {
      pc: step.pc,
      op: step.opcode.name,
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
    if (!this.config.disableStorage && (step.opcode.name === 'SLOAD' || step.opcode.name === 'SSTORE')) {
      const key = step.address.toString();
      const slots = this.storage.get(key) ?? {};
      this.storage.set(key, slots);
      const slot = step.stack[step.stack.length - 1];
      if (slot !== undefined) {
        if (step.opcode.name === 'SSTORE') {
          slots[word(slot)] = word(step.stack[step.stack.length - 2] ?? 0n);
        } else {
          const v = await step.stateManager.getStorage(step.address, setLengthLeft(bigIntToBytes(slot), 32));
          slots[word(slot)] = bytesToHex(setLengthLeft(v, 32));
        }
      }
      log.storage = { ...slots };
    }
    this.logs.push(log);
  };

  /** Return data of a finished call frame: what RETURNDATACOPY would see at the next step. */
  readonly onAfterMessage = (result: { execResult: { returnValue: Uint8Array } }): void => {
    this.lastReturnData = result.execResult.returnValue;
  };

  result(r: RunTxResult): TxTrace {
    return {
      gas: Number(r.totalGasSpent),
      failed: r.execResult.exceptionError !== undefined,
      returnValue: toData(r.execResult.returnValue),
      structLogs: this.logs,
    };
  }
}
