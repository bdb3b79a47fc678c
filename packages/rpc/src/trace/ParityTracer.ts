import { type CallFrame, CallFrameTracer, toData } from '@ashlar/core';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import { StateCollector } from '../debug/stateCollector.js';
import type { TxContext, TxTracer } from '../debug/tracer.js';
import { type ParityTrace, type TracePosition, parityTraces } from './parityTrace.js';
import { type AccountDiff, stateDiff } from './stateDiff.js';

/** The trace types of trace_replay* and trace_call ("vmTrace" is accepted and answered null). */
export interface TraceTypes {
  trace: boolean;
  stateDiff: boolean;
}

/** OpenEthereum's TraceResults (trace_call, trace_replayTransaction). */
export interface TraceResults {
  output: string;
  stateDiff: Record<string, AccountDiff> | null;
  trace: ParityTrace[];
  vmTrace: null;
  transactionHash?: string;
}

type EvmOf = ConstructorParameters<typeof CallFrameTracer>[0];

/** Call frames of one transaction (and, for stateDiff, the touched accounts before and after). */
export class ParityTracer implements TxTracer<TraceResults> {
  private frames?: CallFrameTracer;
  private readonly state?: StateCollector;

  constructor(
    private readonly types: TraceTypes,
    private readonly position?: (ctx: TxContext) => TracePosition,
  ) {
    if (types.stateDiff) this.state = new StateCollector();
  }

  async begin(vm: VM, ctx: TxContext): Promise<void> {
    this.frames = new CallFrameTracer(vm.evm as EvmOf);
    this.frames.attach();
    await this.state?.begin(vm, ctx);
  }

  async end(vm: VM, r: RunTxResult, ctx: TxContext): Promise<TraceResults> {
    const root: CallFrame | undefined = this.frames?.take();
    const trace = root && this.types.trace ? parityTraces(root, this.position?.(ctx)) : [];
    const diff = this.state ? stateDiff(this.state.pre, await this.state.post(vm)) : null;
    return { output: toData(r.execResult.returnValue), stateDiff: diff, trace, vmTrace: null };
  }

  dispose(vm: VM): void {
    this.frames?.detach();
    this.state?.dispose(vm);
  }
}
