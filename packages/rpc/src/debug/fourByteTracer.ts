import { type CallFrame, CallFrameTracer, precompileTable } from '@ashlar/core';
import type { VM } from '@ethereumjs/vm';
import type { TxTracer } from './tracer.js';

type EvmOf<T extends abstract new (...args: never[]) => unknown> = ConstructorParameters<T>[0];

const COUNTED = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);

/**
 * geth's `4byteTracer` (eth/tracers/native/4byte.go): for every call frame — the transaction's
 * own call included, creations not — whose input has a 4-byte selector and whose callee is not a
 * precompile, `"0x<selector>-<calldata size less 4>"` → how many times it was entered. Failed
 * frames count too (geth counts on entry). Keys sorted, as Go's encoding/json writes a map.
 */
export class FourByteTracer implements TxTracer<Record<string, number>> {
  private tracer?: CallFrameTracer;

  async begin(vm: VM): Promise<void> {
    this.tracer = new CallFrameTracer(vm.evm as EvmOf<typeof CallFrameTracer>, { withLogs: false });
    this.tracer.attach();
  }

  async end(vm: VM): Promise<Record<string, number>> {
    const root = this.tracer?.take();
    const precompiles = precompileTable(vm.evm);
    const counts = new Map<string, number>();
    const walk = (f: CallFrame): void => {
      if (COUNTED.has(f.type) && f.input.length >= 4 && !precompiles.has(f.to.slice(2))) {
        const key = `0x${Buffer.from(f.input.subarray(0, 4)).toString('hex')}-${f.input.length - 4}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      for (const c of f.calls) walk(c);
    };
    if (root) walk(root);
    return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  dispose(): void {
    this.tracer?.detach();
  }
}
