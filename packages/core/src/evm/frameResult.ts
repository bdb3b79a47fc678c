/**
 * A message frame's `execResult` as Ashlar's EVM replacements hand it back: `_executeCall`'s
 * early result (a call to an account without code: every value transfer) and `runInterpreter`'s
 * result (a call that ran code: every ERC-20 transfer) are both FrameResults, with the same own
 * data keys in the same order, so the code reading them (runCall, `_runTx`, the tracers) sees one
 * hidden class.
 *
 * Why: @ethereumjs's early result is a 5-key literal and its interpreter result another; a fresh
 * node mining value transfers had `_runTx` optimised on the first, and its first ERC-20 transfer
 * threw that code away ("wrong map" at `results.execResult.executionGasUsed`) to compile it again
 * (~50 ms of V8's compiler). And the interpreter's result had its lazy `runState` as an own getter
 * of an object literal, which V8 keeps in dictionary mode (a getter in a literal is a new closure
 * each time, and such an object never gets a fast map): ~0.9 µs to make, a hash lookup per read.
 *
 * Keys a frame does not have hold undefined (read as before: nothing in @ethereumjs or Ashlar asks
 * whether the key exists). `runState` (the interpreter's run state merged with the frame's result
 * and environment, built on read) is a getter on the prototype, undefined for an early result.
 */
/** Where a FrameResult keeps its merged run state's maker (a symbol: not among its keys). */
const MERGE: unique symbol = Symbol('ashlar.frameResult.merge');

export class FrameResult {
  logs: unknown[] | undefined;
  returnValue: Uint8Array;
  selfdestruct: unknown;
  createdAddresses: unknown;
  exceptionError: unknown;
  gas: bigint | undefined;
  executionGasUsed: bigint;
  gasRefund: bigint | undefined;
  stateGasSpilled: bigint | undefined;
  /** The merged run state's maker (undefined: no interpreter ran). */
  readonly [MERGE]: (() => unknown) | undefined;

  constructor(
    logs: unknown[] | undefined,
    returnValue: Uint8Array,
    selfdestruct: unknown,
    createdAddresses: unknown,
    exceptionError: unknown,
    gas: bigint | undefined,
    executionGasUsed: bigint,
    gasRefund: bigint | undefined,
    stateGasSpilled: bigint | undefined,
    merge: (() => unknown) | undefined,
  ) {
    this.logs = logs;
    this.returnValue = returnValue;
    this.selfdestruct = selfdestruct;
    this.createdAddresses = createdAddresses;
    this.exceptionError = exceptionError;
    this.gas = gas;
    this.executionGasUsed = executionGasUsed;
    this.gasRefund = gasRefund;
    this.stateGasSpilled = stateGasSpilled;
    this[MERGE] = merge;
  }

  get runState(): unknown {
    const merge = this[MERGE];
    return merge === undefined ? undefined : merge();
  }
}

/**
 * `_executeCall`'s early result (`{ gasRefund, executionGasUsed, exceptionError, returnValue: new
 * Uint8Array(0), logs }`, evaluated in that order: the arguments are evaluated before the call).
 */
export function earlyFrameResult(
  gasRefund: bigint | undefined,
  executionGasUsed: bigint,
  exceptionError: unknown,
  logs: unknown[] | undefined,
): FrameResult {
  return new FrameResult(
    logs,
    new Uint8Array(0),
    undefined,
    undefined,
    exceptionError,
    undefined,
    executionGasUsed,
    gasRefund,
    undefined,
    undefined,
  );
}

/**
 * Stores each kind of value every field takes (undefined and an object or bigint) once, when the
 * module loads: V8 then tracks every field as "any" from the start, and code optimised on value
 * transfers (logs, selfdestruct, gas... undefined) is not thrown away when the first contract call
 * stores an array or a bigint there ("field type" generalisation, a lazy deopt of that code).
 */
function generaliseFieldTypes(): void {
  const merge = () => undefined;
  new FrameResult(
    undefined,
    new Uint8Array(0),
    undefined,
    undefined,
    undefined,
    undefined,
    0n,
    undefined,
    undefined,
    undefined,
  );
  new FrameResult([], new Uint8Array(0), new Map(), new Set(), new Error(), 0n, 0n, 0n, 0n, merge);
  new FrameResult([], new Uint8Array(0), new Map(), undefined, undefined, 0n, 0n, undefined, undefined, merge);
}
generaliseFieldTypes();
