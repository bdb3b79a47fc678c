import { defineRpcMethod, flattenFrames, toData, toQuantity } from '@ashlar/core';
import { getActivePrecompiles } from '@ethereumjs/evm';
import { hash } from '../params/index.js';
import { minedFrame } from './minedFrame.js';

export interface OtsTraceEntry {
  type: string;
  depth: number;
  from: string;
  to: string;
  value: string | null;
  input: string;
  output: string;
}

/**
 * Erigon's ots_traceTransaction: every call, creation and self-destruct, flat in execution
 * order with its depth. `value` is null for DELEGATECALL and STATICCALL, as Erigon's tracer
 * is given none for them; calls to precompiles are left out, as Erigon leaves them.
 */
export const ots_traceTransaction = defineRpcMethod({
  name: 'ots_traceTransaction',
  params: [hash('transactionHash')],
  handler: async (ctx, [h]) => {
    const { frame } = await minedFrame(ctx.services, h);
    const precompiles = new Set([...getActivePrecompiles(ctx.services.chain.common).keys()].map((a) => `0x${a}`));
    const isPrecompileCall = (type: string, to: string) => type.endsWith('CALL') && precompiles.has(to);
    return flattenFrames(frame)
      .filter(({ frame: f, traceAddress }) => traceAddress.length === 0 || !isPrecompileCall(f.type, f.to))
      .map(
        ({ frame: f }): OtsTraceEntry => ({
          type: f.type,
          depth: f.depth,
          from: f.from,
          to: f.to,
          value: f.type === 'DELEGATECALL' || f.type === 'STATICCALL' ? null : toQuantity(f.value),
          input: toData(f.input),
          output: toData(f.output),
        }),
      );
  },
});
