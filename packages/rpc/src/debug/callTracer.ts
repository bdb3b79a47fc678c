import { type CallFrame, CallFrameTracer, type FrameLog, gethError, toData, toQuantity } from '@ashlar/core';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import { gethRevertReason } from './gethRevertReason.js';
import type { TxContext, TxTracer } from './tracer.js';

type EvmOf<T extends abstract new (...args: never[]) => unknown> = ConstructorParameters<T>[0];

export interface GethCallLog {
  address: string;
  topics: string[];
  data: string;
  /** Block-level log index. */
  index: string;
  /** Sub-calls of the frame made before the log. */
  position: string;
}

/** geth's callTracer frame (eth/tracers/native/call.go), optional fields omitted as there. */
export interface GethCallFrame {
  type: string;
  from: string;
  gas: string;
  gasUsed: string;
  to?: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: GethCallFrame[];
  logs?: GethCallLog[];
  value?: string;
}

/**
 * The frames' logs in the order they were emitted: a frame's log at `position` p came after its
 * first p sub-calls (and everything they logged). Gives each its block-level index.
 */
function numberLogs(root: CallFrame, first: number): Map<FrameLog, number> {
  const out = new Map<FrameLog, number>();
  let next = first;
  const walk = (f: CallFrame): void => {
    let li = 0;
    for (let i = 0; i <= f.calls.length; i++) {
      while (li < f.logs.length && f.logs[li].position <= i) out.set(f.logs[li++], next++);
      if (i < f.calls.length) walk(f.calls[i]);
    }
  };
  walk(root);
  return out;
}

function format(f: CallFrame, withLog: boolean, onlyTop: boolean, logIndex: Map<FrameLog, number>): GethCallFrame {
  const failedCreate = f.error !== undefined && (f.type === 'CREATE' || f.type === 'CREATE2');
  const out: GethCallFrame = {
    from: f.from,
    gas: toQuantity(f.gas),
    gasUsed: toQuantity(f.gasUsed),
    ...(f.to !== '' && !failedCreate ? { to: f.to } : {}),
    input: toData(f.input),
    type: f.type,
  };
  if (f.output.length > 0) out.output = toData(f.output);
  if (f.error !== undefined) {
    out.error = gethError(f.error);
    if (f.error === 'revert') {
      const reason = gethRevertReason(f.output);
      if (reason !== undefined) out.revertReason = reason;
    }
  }
  if (!onlyTop && f.calls.length > 0) out.calls = f.calls.map((c) => format(c, withLog, false, logIndex));
  if (withLog && f.logs.length > 0)
    out.logs = f.logs.map((l) => ({
      address: l.address,
      topics: l.topics,
      data: toData(l.data),
      index: toQuantity(logIndex.get(l) ?? 0),
      position: toQuantity(l.position),
    }));
  // geth gives STATICCALL no value; DELEGATECALL carries its caller's.
  if (f.type !== 'STATICCALL') out.value = toQuantity(f.value);
  // geth writes `type` last.
  const { type, ...rest } = out;
  return { ...rest, type };
}

/**
 * geth's `callTracer`: the tree of call frames. The top frame's `gas` is the transaction's gas
 * limit and its `gasUsed` the receipt's (intrinsic gas included), as geth sets them.
 */
export class CallTracer implements TxTracer<GethCallFrame> {
  private tracer?: CallFrameTracer;

  constructor(private readonly options: { onlyTopCall: boolean; withLog: boolean }) {}

  async begin(vm: VM): Promise<void> {
    this.tracer = new CallFrameTracer(vm.evm as EvmOf<typeof CallFrameTracer>, { withLogs: this.options.withLog });
    this.tracer.attach();
  }

  async end(_vm: VM, r: RunTxResult, ctx: TxContext): Promise<GethCallFrame> {
    const root = this.tracer?.take();
    if (!root) throw new Error('callTracer: the transaction made no call');
    const top: CallFrame = { ...root, gas: ctx.tx.gasLimit, gasUsed: r.totalGasSpent };
    const logIndex = this.options.withLog ? numberLogs(root, ctx.firstLogIndex) : new Map<FrameLog, number>();
    return format(top, this.options.withLog, this.options.onlyTopCall, logIndex);
  }

  dispose(): void {
    this.tracer?.detach();
  }
}
