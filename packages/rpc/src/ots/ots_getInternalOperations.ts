import { type CallFrame, defineRpcMethod, flattenFrames, toQuantity } from '@ashlar/core';
import { hash } from '../params/index.js';
import { minedFrame } from './minedFrame.js';

/** Erigon's operation types. */
const TRANSFER = 0;
const SELF_DESTRUCT = 1;
const CREATE = 2;
const CREATE2 = 3;

function opType(f: CallFrame): number | undefined {
  if (f.type === 'CALL' && f.value > 0n) return TRANSFER;
  if (f.type === 'SELFDESTRUCT') return SELF_DESTRUCT;
  if (f.type === 'CREATE') return CREATE;
  if (f.type === 'CREATE2') return CREATE2;
  return undefined;
}

/**
 * Erigon's ots_getInternalOperations: the value transfers (CALLs with value), creations and
 * self-destructs below the top call, in execution order.
 */
export const ots_getInternalOperations = defineRpcMethod({
  name: 'ots_getInternalOperations',
  params: [hash('transactionHash')],
  handler: async (ctx, [h]) => {
    const { frame } = await minedFrame(ctx.services, h);
    const out: { type: number; from: string; to: string; value: string }[] = [];
    for (const { frame: f, traceAddress } of flattenFrames(frame)) {
      if (traceAddress.length === 0) continue;
      const type = opType(f);
      if (type !== undefined) out.push({ type, from: f.from, to: f.to, value: toQuantity(f.value) });
    }
    return out;
  },
});
