/**
 * Call frames: what a transaction did inside — every call, creation and self-destruct, nested as
 * they ran. One shape serves the explorer's internal transactions, geth's `callTracer`, Parity's
 * `trace_*` and Otterscan's `ots_*`; each formats it its own way.
 */

/** Upper-case as geth's callTracer names them. */
export type CallType = 'CALL' | 'DELEGATECALL' | 'STATICCALL' | 'CALLCODE' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT';

/** A log emitted by a frame itself (not by its sub-calls). */
export interface FrameLog {
  address: string;
  topics: string[];
  data: Uint8Array;
  /** Number of sub-calls of the frame made before the log (geth's `position`). */
  position: number;
}

export interface CallFrame {
  type: CallType;
  /** Lower-case 0x addresses. For DELEGATECALL/CALLCODE, `to` is the code's address and `from` the caller. */
  from: string;
  /** Callee, or the created address of a CREATE/CREATE2 (also when the creation failed), or a self-destruct's beneficiary. */
  to: string;
  value: bigint;
  /** Gas given to the frame (the top frame: the transaction's gas limit less intrinsic gas). */
  gas: bigint;
  /** Gas the frame used, sub-calls included (all of `gas` on an exceptional halt). */
  gasUsed: bigint;
  input: Uint8Array;
  /** Return data; for a successful creation, the deployed code. */
  output: Uint8Array;
  /** The EVM's error text (see gethError/parityError for the wire wordings). */
  error?: string;
  depth: number;
  calls: CallFrame[];
  logs: FrameLog[];
}

/** A frame with its place in the tree, as the flat formats (Parity traces, the index) list frames. */
export interface FlatFrame {
  frame: CallFrame;
  /** Path of sub-call indices from the top frame: [] for the top, [0, 2] for its first call's third call. */
  traceAddress: number[];
}

/** Depth-first, parents before children: the order of Parity's traces and of Blockscout's internal transactions. */
export function flattenFrames(root: CallFrame): FlatFrame[] {
  const out: FlatFrame[] = [];
  const walk = (frame: CallFrame, traceAddress: number[]): void => {
    out.push({ frame, traceAddress });
    for (let i = 0; i < frame.calls.length; i++) walk(frame.calls[i], [...traceAddress, i]);
  };
  walk(root, []);
  return out;
}

/** True if any frame below the top one failed (Blockscout's `has_error_in_internal_txs`). */
export function hasErrorInInternalFrames(root: CallFrame): boolean {
  const walk = (f: CallFrame): boolean => f.calls.some((c) => c.error !== undefined || walk(c));
  return walk(root);
}

/** geth's error strings (core/vm/errors.go) for the EVM's. */
const GETH_ERRORS: Record<string, string> = {
  revert: 'execution reverted',
  'out of gas': 'out of gas',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'stack underflow': 'stack underflow',
  'stack overflow': 'stack limit reached 1024',
  'invalid JUMP': 'invalid jump destination',
  'invalid opcode': 'invalid opcode',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
  'value out of range': 'return data out of bounds',
};

export function gethError(evmError: string): string {
  return GETH_ERRORS[evmError] ?? evmError;
}

/** OpenEthereum's error strings (trace/src/types/error.rs) for the EVM's, as Parity traces and Blockscout show them. */
const PARITY_ERRORS: Record<string, string> = {
  revert: 'Reverted',
  'out of gas': 'Out of gas',
  'code store out of gas': 'Out of gas',
  'code size to deposit exceeds maximum code size': 'Out of gas',
  'stack underflow': 'Stack underflow',
  'stack overflow': 'Out of stack',
  'invalid JUMP': 'Bad jump destination',
  'invalid opcode': 'Bad instruction',
  'static state change': 'Mutable Call In Static Context',
  'create collision': 'Contract address collision',
  'insufficient balance': 'Insufficient balance',
  'invalid bytecode deployed': 'Bad instruction',
  'initcode exceeds max initcode size': 'Out of gas',
  'value out of range': 'Out of bounds',
};

export function parityError(evmError: string): string {
  return PARITY_ERRORS[evmError] ?? evmError;
}
