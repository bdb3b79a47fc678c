import { type CallFrame, type FlatFrame, flattenFrames, parityError, toData, toQuantity } from '@ashlar/core';

/** Where a trace's transaction sits (absent for trace_call and the replay methods). */
export interface TracePosition {
  blockHash: string;
  blockNumber: number;
  transactionHash: string;
  transactionPosition: number;
}

export type ParityAction =
  | { from: string; callType: string; gas: string; input: string; to: string; value: string }
  | { from: string; gas: string; init: string; value: string; creationMethod: string }
  | { address: string; refundAddress: string; balance: string };

export type ParityResult =
  | { gasUsed: string; output: string }
  | { address: string; code: string; gasUsed: string }
  | null;

export interface ParityTrace {
  action: ParityAction;
  blockHash?: string;
  blockNumber?: number;
  error?: string;
  result: ParityResult;
  subtraces: number;
  traceAddress: number[];
  transactionHash?: string;
  transactionPosition?: number;
  type: 'call' | 'create' | 'suicide';
}

function actionOf(f: CallFrame): { type: ParityTrace['type']; action: ParityAction; result: ParityResult } {
  switch (f.type) {
    case 'SELFDESTRUCT':
      return {
        type: 'suicide',
        action: { address: f.from, refundAddress: f.to, balance: toQuantity(f.value) },
        result: null,
      };
    case 'CREATE':
    case 'CREATE2':
      return {
        type: 'create',
        action: {
          from: f.from,
          gas: toQuantity(f.gas),
          init: toData(f.input),
          value: toQuantity(f.value),
          creationMethod: f.type.toLowerCase(),
        },
        result: { address: f.to, code: toData(f.output), gasUsed: toQuantity(f.gasUsed) },
      };
    default:
      return {
        type: 'call',
        action: {
          from: f.from,
          callType: f.type.toLowerCase(),
          gas: toQuantity(f.gas),
          input: toData(f.input),
          to: f.to,
          value: toQuantity(f.value),
        },
        result: { gasUsed: toQuantity(f.gasUsed), output: toData(f.output) },
      };
  }
}

/**
 * A transaction's call frames as Parity (OpenEthereum) traces, depth-first. The top call's gas
 * is the transaction's less its intrinsic gas and its gasUsed the execution's (before refunds),
 * as OpenEthereum, Erigon and Anvil report. A reverted frame keeps its `result` (gas used and
 * revert data) next to `error`, any other failure has `result: null`, as Anvil answers.
 */
export function parityTraces(root: CallFrame, pos?: TracePosition): ParityTrace[] {
  return flattenFrames(root).map(({ frame, traceAddress }: FlatFrame) => {
    const { type, action, result } = actionOf(frame);
    // A revert keeps its result (gas used, revert data); any other failure has none.
    const failed = frame.error !== undefined && frame.error !== 'revert';
    const t: ParityTrace = {
      action,
      result: failed ? null : result,
      subtraces: frame.calls.length,
      traceAddress,
      type,
    };
    if (pos) {
      t.blockHash = pos.blockHash;
      t.blockNumber = pos.blockNumber;
      t.transactionHash = pos.transactionHash;
      t.transactionPosition = pos.transactionPosition;
    }
    if (frame.error !== undefined) t.error = parityError(frame.error);
    return t;
  });
}
